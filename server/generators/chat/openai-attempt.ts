import type OpenAI from "openai";
import { IDEMPOTENCY_HEADER } from "../../engine";
import type { ChatRequest, ChatToolCall } from "./chat-model";
import { toSdkMessages, toSdkTools } from "./openai-mapping";
import { mediaType, notACompletion, readCompletionBody, readStreamChunk, type RawReply, type ResponseLabel } from "./read-reply";
import { ReplyBudget } from "./reply-budget";
import { AttemptTimeoutError, MalformedResponseError, ResponseTooLargeError } from "./retry-policy";

/** One HTTP attempt's reply, already cut to the byte budget. */
export interface AttemptReply extends RawReply {
  readonly truncated: boolean;
}

export interface AttemptLimits {
  readonly timeoutMs: number;
  readonly maxReplyBytes: number;
  /** Where we stop reading a non-streamed body at all (it is JSON around the content, so larger). */
  readonly maxBodyBytes: number;
}

function params(request: ChatRequest) {
  return {
    model: request.model,
    messages: toSdkMessages(request.messages),
    ...(request.tools && request.tools.length > 0 ? { tools: toSdkTools(request.tools) } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
}

/** The request's own headers: its idempotency key, when the ledger gave one. */
function requestOptions(request: ChatRequest, signal: AbortSignal) {
  return { signal, ...(request.idempotencyKey ? { headers: { [IDEMPOTENCY_HEADER]: request.idempotencyKey } } : {}) };
}

/**
 * Runs one attempt under a deadline of our own. The SDK's `timeout` stops at the response
 * headers for streams, so a server that goes quiet mid-stream would hang the run forever; this
 * deadline aborts the whole exchange, body included.
 */
export async function attempt(client: OpenAI, request: ChatRequest, limits: AttemptLimits): Promise<AttemptReply> {
  const controller = new AbortController();
  // The run's own abort (cancel, shutdown) ends the exchange too; `complete` tells the two apart.
  const onAbort = () => controller.abort();
  request.signal?.addEventListener("abort", onAbort, { once: true });
  if (request.signal?.aborted) controller.abort();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  const expired = () => new AttemptTimeoutError(`no complete reply within ${limits.timeoutMs} ms`);
  try {
    const reply = request.onToken
      ? await streamed(client, request, request.onToken, limits, controller.signal)
      : await buffered(client, request, limits, controller.signal);
    // The SDK ends a stream quietly when it is aborted, so a deadline hit mid-stream shows up here.
    if (timedOut) throw expired();
    return reply;
  } catch (error) {
    throw timedOut ? expired() : error;
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onAbort);
  }
}

async function buffered(client: OpenAI, request: ChatRequest, limits: AttemptLimits, signal: AbortSignal): Promise<AttemptReply> {
  const response = await client.chat.completions.create(params(request), requestOptions(request, signal)).asResponse();
  return wholeReply(response, request, limits);
}

/** A whole (non-streamed) completion body, read under the body cap and cut to the reply budget. */
async function wholeReply(response: Response, request: ChatRequest, limits: AttemptLimits): Promise<AttemptReply> {
  const raw = readCompletionBody(await readCapped(response, limits.maxBodyBytes), labelOf(response), request.model);
  const budget = new ReplyBudget(limits.maxReplyBytes);
  const content = budget.take(raw.content);
  const toolCalls = raw.toolCalls.map((call) => ({ ...call, name: budget.take(call.name), arguments: budget.take(call.arguments) }));
  return { ...raw, content, toolCalls, truncated: budget.exceeded };
}

function labelOf(response: Response): ResponseLabel {
  return { status: response.status, contentType: response.headers.get("content-type") };
}

/** Reads the body as text, refusing to buffer more than `maxBytes` (the SDK would buffer anything). */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(`the response body exceeded ${maxBytes} bytes; stopped reading`);
    }
    text += decoder.decode(value, { stream: true });
  }
}

async function streamed(
  client: OpenAI,
  request: ChatRequest,
  onToken: (token: string) => void,
  limits: AttemptLimits,
  signal: AbortSignal,
): Promise<AttemptReply> {
  const { data: stream, response } = await client.chat.completions
    .create({ ...params(request), stream: true, stream_options: { include_usage: true } }, requestOptions(request, signal))
    .withResponse();
  const type = mediaType(response.headers.get("content-type"));
  // A server that ignores `stream: true` answers with a whole completion: read it as one.
  if (type === "application/json") {
    const whole = await wholeReply(response, request, limits);
    if (whole.content) emit(onToken, whole.content);
    return whole;
  }
  if (type.includes("html")) {
    stream.controller.abort();
    throw notACompletion("", labelOf(response));
  }

  const budget = new ReplyBudget(limits.maxReplyBytes);
  const calls: { id: string; name: string; arguments: string }[] = [];
  let content = "";
  let model = request.model;
  let usage: RawReply["usage"] = null;
  let finishReason: string | null = null;

  for await (const raw of stream) {
    const chunk = readStreamChunk(raw);
    if (chunk.model) model = chunk.model;
    if (chunk.usage) usage = chunk.usage;
    const token = chunk.content ? budget.take(chunk.content) : "";
    if (token) {
      content += token;
      emit(onToken, token);
    }
    for (const delta of chunk.toolCalls) {
      // Deltas carry the call's index (bounded by readStreamChunk); id and name come once, the arguments in pieces.
      const call = (calls[delta.index] ??= { id: "", name: "", arguments: "" });
      if (delta.id) call.id = budget.take(delta.id);
      if (delta.name) call.name += budget.take(delta.name);
      if (delta.arguments) call.arguments += budget.take(delta.arguments);
    }
    if (chunk.finishReason) finishReason = chunk.finishReason;
    // Leaving the loop aborts the request: we stop downloading what we would throw away.
    if (budget.exceeded) break;
  }
  // An abort (our deadline, or a cancel) ends the SDK's stream quietly: what arrived is never a whole reply.
  signal.throwIfAborted();
  // Every real server (OpenAI, Ollama, vLLM) ends a reply with a finish reason; a stream that
  // stops without one was cut short (a proxy, a crash) or was never a completion (an HTML page).
  if (!budget.exceeded && finishReason === null) {
    throw new MalformedResponseError(`the stream ended before the reply was finished (no finish_reason; status ${response.status}, ${type})`);
  }
  // Some servers (older Ollama) send no call ids; the tool's answer must still name its call.
  const toolCalls: ChatToolCall[] = calls.flatMap((call, index) => (call ? [{ ...call, id: call.id || `call_${index + 1}` }] : []));
  return { content, toolCalls, model, usage, finishReason, truncated: budget.exceeded };
}

/** Tokens are a live preview; a failing listener must neither fail nor repeat the model call. */
function emit(onToken: (token: string) => void, token: string) {
  try {
    onToken(token);
  } catch {
    // ignored on purpose, see above
  }
}
