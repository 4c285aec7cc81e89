/**
 * Reads what an endpoint sent back as a chat completion, trusting nothing: a proxy's HTML error
 * page with status 200, `{}`, an empty `choices` list, a chunk that is not an object or content
 * that is not text are protocol failures (MalformedResponseError, retried with backoff), never an
 * empty reply the run would carry on with. Messages are our own words: the body is never echoed.
 * Tolerated because real servers send them: a missing tool-call id, arguments sent as an object,
 * content as a list of text parts, a `reasoning`/`reasoning_content` field (ignored).
 */
import type { ChatToolCall, ChatUsage } from "./chat-model";
import { MalformedResponseError } from "./retry-policy";

/** No real model sends this many tool calls in one reply; the index of a streamed call is checked against it too. */
export const MAX_TOOL_CALLS = 128;

/** What a completion holds for us, before the size cap is applied. */
export interface RawReply {
  readonly content: string;
  readonly toolCalls: ChatToolCall[];
  readonly model: string;
  readonly usage: ChatUsage | null;
  readonly finishReason: string | null;
}

/** How the endpoint labelled its answer, for the message of a failure. */
export interface ResponseLabel {
  readonly status: number;
  readonly contentType: string | null;
}

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);
const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : `a ${typeof value}`);

/** The media type alone ("text/html"); for a missing or unreadable header, words saying so, never the header itself. */
export function mediaType(contentType: string | null): string {
  if (!contentType) return "no content type";
  return /^\s*([\w.+-]{1,64}\/[\w.+-]{1,64})/.exec(contentType)?.[1]?.toLowerCase() ?? "an unreadable content type";
}

function looksLikeHtml(text: string, contentType: string | null): boolean {
  return mediaType(contentType).includes("html") || /^\s*<(?:!doctype|html|head|body|\?xml|!--)/i.test(text.slice(0, 1024));
}

/** The failure for a body that is not a completion at all (HTML, not JSON). */
export function notACompletion(text: string, label: ResponseLabel): MalformedResponseError {
  const how = `status ${label.status}, ${mediaType(label.contentType)}`;
  if (looksLikeHtml(text, label.contentType)) return new MalformedResponseError(`the endpoint answered with an HTML page, not a chat completion (${how})`);
  if (text.trim() === "") return new MalformedResponseError(`the endpoint answered with an empty body, not a chat completion (${how})`);
  return new MalformedResponseError(`the endpoint answered with a body that is not JSON, not a chat completion (${how}, ${Buffer.byteLength(text)} bytes)`);
}

function malformed(what: string): MalformedResponseError {
  return new MalformedResponseError(`the endpoint's chat completion is malformed: ${what}`);
}

/** Reads a non-streamed completion body. */
export function readCompletionBody(text: string, label: ResponseLabel, requestedModel: string): RawReply {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw notACompletion(text, label);
  }
  if (!isObject(body)) throw malformed(`the body is ${kindOf(body)}, not an object`);
  if ("error" in body && body.error != null) throw malformed("it holds an error object instead of choices");
  if (!Array.isArray(body.choices)) throw malformed(body.choices === undefined ? "it has no choices" : `choices is ${kindOf(body.choices)}`);
  const choice: unknown = body.choices[0];
  if (choice === undefined) throw malformed("its choices list is empty");
  if (!isObject(choice)) throw malformed(`choices[0] is ${kindOf(choice)}`);
  if (!isObject(choice.message)) throw malformed(choice.message === undefined ? "choices[0] has no message" : `choices[0].message is ${kindOf(choice.message)}`);
  const message = choice.message;
  const rawCalls = message.tool_calls ?? [];
  if (!Array.isArray(rawCalls)) throw malformed(`choices[0].message.tool_calls is ${kindOf(rawCalls)}`);
  if (rawCalls.length > MAX_TOOL_CALLS) throw malformed(`more than ${MAX_TOOL_CALLS} tool calls`);
  return {
    content: readContent(message.content, "choices[0].message.content"),
    toolCalls: rawCalls.map((call, index) => readToolCall(call, index)),
    model: typeof body.model === "string" ? body.model : requestedModel,
    usage: readUsage(body.usage),
    finishReason: readFinishReason(choice.finish_reason, "choices[0].finish_reason"),
  };
}

/** Text, nothing, or a list of text parts (some OpenAI-compatible servers send parts). */
function readContent(content: unknown, where: string): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.every((part) => isObject(part) && (part.text === undefined || typeof part.text === "string"))) {
    return content.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : "")).join("");
  }
  throw malformed(`${where} is ${kindOf(content)}, not text`);
}

function readToolCall(call: unknown, index: number): ChatToolCall {
  const where = `choices[0].message.tool_calls[${index}]`;
  if (!isObject(call) || !isObject(call.function)) throw malformed(`${where} is not a function call`);
  if (typeof call.function.name !== "string") throw malformed(`${where}.function.name is not text`);
  return {
    // Older Ollama sends no id; the tool's answer must still name its call.
    id: typeof call.id === "string" && call.id !== "" ? call.id : `call_${index + 1}`,
    name: call.function.name,
    arguments: readArguments(call.function.arguments, `${where}.function.arguments`),
  };
}

/** The JSON text of the arguments; an object (sent by some servers) is written back as JSON text. */
function readArguments(value: unknown, where: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (isObject(value)) return JSON.stringify(value);
  throw malformed(`${where} is ${kindOf(value)}`);
}

function readFinishReason(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw malformed(`${where} is ${kindOf(value)}, not text`);
  return value;
}

/** Usage is informative only: a field that is not a count is read as 0 rather than failing the call. */
export function readUsage(usage: unknown): ChatUsage | null {
  if (!isObject(usage)) return null;
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0);
  return { promptTokens: count(usage.prompt_tokens), completionTokens: count(usage.completion_tokens), totalTokens: count(usage.total_tokens) };
}

/** One streamed chunk as we use it: the first choice's delta, checked. */
export interface ChunkDelta {
  readonly model: string | null;
  readonly usage: ChatUsage | null;
  readonly content: string;
  readonly toolCalls: readonly { readonly index: number; readonly id: string; readonly name: string; readonly arguments: string }[];
  readonly finishReason: string | null;
}

/** Reads one streamed chunk; anything but the documented shape is a protocol failure. */
export function readStreamChunk(chunk: unknown): ChunkDelta {
  if (!isObject(chunk)) throw malformed(`a streamed chunk is ${kindOf(chunk)}, not an object`);
  const choices = chunk.choices ?? [];
  if (!Array.isArray(choices)) throw malformed(`a streamed chunk's choices is ${kindOf(choices)}`);
  const choice: unknown = choices[0];
  const base = { model: typeof chunk.model === "string" && chunk.model !== "" ? chunk.model : null, usage: readUsage(chunk.usage) };
  // The usage-only chunk at the end has an empty choices list.
  if (choice === undefined) return { ...base, content: "", toolCalls: [], finishReason: null };
  if (!isObject(choice)) throw malformed(`a streamed chunk's choices[0] is ${kindOf(choice)}`);
  const delta = choice.delta ?? {};
  if (!isObject(delta)) throw malformed(`a streamed delta is ${kindOf(delta)}`);
  const calls = delta.tool_calls ?? [];
  if (!Array.isArray(calls)) throw malformed(`a streamed delta's tool_calls is ${kindOf(calls)}`);
  return {
    ...base,
    content: readContent(delta.content, "a streamed delta's content"),
    toolCalls: calls.map((call) => readToolCallDelta(call)),
    finishReason: readFinishReason(choice.finish_reason, "a streamed chunk's finish_reason"),
  };
}

function readToolCallDelta(call: unknown) {
  if (!isObject(call)) throw malformed(`a streamed tool call is ${kindOf(call)}`);
  // Deltas carry the call's index; the index places the call in a list, so it is bounded.
  const index = call.index ?? 0;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= MAX_TOOL_CALLS) throw malformed(`a streamed tool call's index is not a whole number below ${MAX_TOOL_CALLS}`);
  const fn = call.function ?? {};
  if (!isObject(fn)) throw malformed("a streamed tool call's function is not an object");
  if (fn.name !== undefined && fn.name !== null && typeof fn.name !== "string") throw malformed("a streamed tool call's name is not text");
  return {
    index,
    id: typeof call.id === "string" ? call.id : "",
    name: typeof fn.name === "string" ? fn.name : "",
    arguments: readArguments(fn.arguments, "a streamed tool call's arguments"),
  };
}
