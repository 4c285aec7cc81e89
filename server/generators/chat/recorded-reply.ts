/**
 * A ChatReply as the run's ledger keeps it, and read back from it. The ledger is the source of
 * truth on replay, and a row written by an older version (or edited in the database) may lack a
 * field or hold the wrong type, so reading never trusts a cast: every field is checked.
 */
import type { JsonObject } from "../../engine";
import type { ChatReply, ChatToolCall, ChatUsage } from "./chat-model";

/** What the generators use of a recorded reply. */
export interface RecordedReply {
  readonly content: string;
  readonly toolCalls: readonly ChatToolCall[];
  readonly usage: ChatUsage | null;
  readonly latencyMs: number | null;
  readonly attempts: number | null;
  readonly finishReason: string | null;
  readonly truncated: boolean;
  /** The byte budget the reply was cut to, when it was. */
  readonly maxReplyBytes: number | null;
}

/** The reply as the ledger stores it: named fields only, so nothing that is not JSON slips in. */
export function toRecordedJson(reply: ChatReply): JsonObject {
  return {
    content: reply.content,
    toolCalls: reply.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
    model: reply.model,
    usage: reply.usage ? { ...reply.usage } : null,
    latencyMs: reply.latencyMs,
    finishReason: reply.finishReason,
    truncated: reply.truncated,
    ...(reply.maxReplyBytes !== undefined ? { maxReplyBytes: reply.maxReplyBytes } : {}),
    attempts: reply.attempts,
  };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const number = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);

export function readRecordedReply(result: JsonObject): RecordedReply {
  const calls = Array.isArray(result.toolCalls) ? result.toolCalls : [];
  return {
    content: text(result.content),
    toolCalls: calls.flatMap((call, index): ChatToolCall[] =>
      typeof call === "object" && call !== null && !Array.isArray(call) ? [{ id: text(call.id) || `call_${index + 1}`, name: text(call.name), arguments: text(call.arguments) }] : [],
    ),
    usage: readUsage(result.usage),
    latencyMs: number(result.latencyMs),
    attempts: number(result.attempts),
    finishReason: typeof result.finishReason === "string" ? result.finishReason : null,
    truncated: result.truncated === true,
    maxReplyBytes: number(result.maxReplyBytes),
  };
}

function readUsage(value: unknown): ChatUsage | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const usage = value as Record<string, unknown>;
  return { promptTokens: number(usage.promptTokens) ?? 0, completionTokens: number(usage.completionTokens) ?? 0, totalTokens: number(usage.totalTokens) ?? 0 };
}

/**
 * Why a reply is not a whole answer, as the attempt's feedback to the model: it was cut at our
 * size limit, or the endpoint stopped it at its output token limit (finish_reason "length"). The
 * engine fails the attempt with it (Generation.incomplete) and asks again: cut code can still
 * parse (Python cut at a line break does), so no guard may be trusted to notice.
 */
export function cutShortFeedback(reply: RecordedReply): string | undefined {
  if (reply.truncated) {
    const where = reply.maxReplyBytes !== null ? `at ${reply.maxReplyBytes} bytes` : "at the size limit";
    return `The reply was cut ${where}: answer more briefly.`;
  }
  if (reply.finishReason === "length") return 'The reply was cut at the model\'s output token limit (finish_reason "length"): answer more briefly.';
  return undefined;
}
