import { SpanKind, SpanStatusCode, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { CallRequest, JsonObject } from "../engine";
import { ERROR_TYPE, GEN_AI, GEN_AI_OPERATION, GEN_AI_PROVIDER } from "./genai-attributes";

/** The policy of a replay generator's call (generators/replay/replay-generator.ts). */
const REPLAY_POLICY = "replay";
/** Longest error message put on a span. */
const MESSAGE_LIMIT = 1_000;

/**
 * The span of one call a turn makes through its CallLedger: a model request is a GenAI `chat`
 * CLIENT span, a reply read from a replay cassette a `dualstate.replay` span, anything else a
 * tool (`execute_tool`).
 */
export function startCallSpan(tracer: Tracer, call: { key: string; request: CallRequest; parent: Context; startTime: number }): Span {
  const { key, request, parent, startTime } = call;
  const own = { "dualstate.call.key": key, "dualstate.call.actor": request.actor };
  if (request.policy === "model") {
    const model = typeof request.payload.model === "string" ? request.payload.model : undefined;
    const temperature = typeof request.payload.temperature === "number" ? request.payload.temperature : undefined;
    const attributes = {
      [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.CHAT,
      [GEN_AI.PROVIDER_NAME]: GEN_AI_PROVIDER,
      [GEN_AI.SYSTEM]: GEN_AI_PROVIDER,
      ...(model ? { [GEN_AI.REQUEST_MODEL]: model } : {}),
      ...(temperature !== undefined ? { [GEN_AI.REQUEST_TEMPERATURE]: temperature } : {}),
      ...own,
    };
    return tracer.startSpan(model ? `${GEN_AI_OPERATION.CHAT} ${model}` : GEN_AI_OPERATION.CHAT, { kind: SpanKind.CLIENT, startTime, attributes }, parent);
  }
  // A reply read from a cassette: no model is asked and no tool runs.
  if (request.policy === REPLAY_POLICY) return tracer.startSpan("dualstate.replay", { kind: SpanKind.INTERNAL, startTime, attributes: own }, parent);
  const attributes = { [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.EXECUTE_TOOL, [GEN_AI.TOOL_NAME]: request.policy, ...own };
  return tracer.startSpan(`${GEN_AI_OPERATION.EXECUTE_TOOL} ${request.policy}`, { kind: SpanKind.INTERNAL, startTime, attributes }, parent);
}

/** A model call's response attributes, read from the reply the ledger records (chat/recorded-reply.ts). */
export function describeCallResult(span: Span, request: CallRequest, result: JsonObject): void {
  if (request.policy !== "model") return;
  if (typeof result.model === "string" && result.model) span.setAttribute(GEN_AI.RESPONSE_MODEL, result.model);
  if (typeof result.finishReason === "string") span.setAttribute(GEN_AI.RESPONSE_FINISH_REASONS, [result.finishReason]);
  const usage = result.usage;
  if (usage && typeof usage === "object" && !Array.isArray(usage)) {
    if (typeof usage.promptTokens === "number") span.setAttribute(GEN_AI.USAGE_INPUT_TOKENS, usage.promptTokens);
    if (typeof usage.completionTokens === "number") span.setAttribute(GEN_AI.USAGE_OUTPUT_TOKENS, usage.completionTokens);
  }
  if (typeof result.attempts === "number") span.setAttribute("dualstate.call.http_attempts", result.attempts);
}

/** A call that threw: its error code (a CallFailedError's) or class, and its message. */
export function describeCallError(span: Span, error: unknown): void {
  const type = error && typeof error === "object" && "code" in error && typeof error.code === "string" ? error.code : error instanceof Error ? error.name : "error";
  const message = error instanceof Error ? error.message : String(error);
  span.setAttribute(ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: message.length > MESSAGE_LIMIT ? `${message.slice(0, MESSAGE_LIMIT)}…` : message });
}
