/**
 * The JSON bodies a real OpenAI-compatible server sends for chat completions, whole and as
 * streamed chunks, built from a scripted reply. Kept apart from the server so the HTTP and fault
 * handling there stays readable.
 */

export interface FakeToolCall {
  readonly name: string;
  /** JSON text of the arguments; sent verbatim (so a test may script malformed arguments). */
  readonly arguments: string;
  readonly id?: string;
}

export interface FakeMessage {
  readonly content: string | null;
  readonly toolCalls: readonly FakeToolCall[];
}

const CREATED = () => Math.floor(Date.now() / 1000);

function usage(content: string | null) {
  const completion = content?.length ?? 0;
  return { prompt_tokens: 10, completion_tokens: completion, total_tokens: 10 + completion };
}

function toolCallId(call: FakeToolCall, index: number): string {
  return call.id ?? `call_fake_${index + 1}`;
}

function finishReason(message: FakeMessage): string {
  return message.toolCalls.length > 0 ? "tool_calls" : "stop";
}

export function completionBody(model: string, message: FakeMessage) {
  const toolCalls = message.toolCalls.map((call, index) => ({
    id: toolCallId(call, index),
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: "chat.completion",
    created: CREATED(),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: message.content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        finish_reason: finishReason(message),
      },
    ],
    usage: usage(message.content),
  };
}

/** Splits text into small pieces (whole code points, so no surrogate pair is cut) like a model's tokens. */
export function tokenize(text: string, size = 8): string[] {
  const points = Array.from(text);
  const tokens: string[] = [];
  for (let i = 0; i < points.length; i += size) tokens.push(points.slice(i, i + size).join(""));
  return tokens;
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null) {
  return { id: "chatcmpl-fake-stream", object: "chat.completion.chunk", created: CREATED(), model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

/**
 * The chunks of a streamed reply, in the order OpenAI sends them: the role, the content tokens,
 * each tool call (name first, then its arguments in two pieces, as real servers split them),
 * the finish reason, and the usage-only chunk when the client asked for it.
 */
export function streamChunks(model: string, message: FakeMessage, includeUsage: boolean): unknown[] {
  const chunks: unknown[] = [chunk(model, { role: "assistant", content: "" })];
  for (const token of tokenize(message.content ?? "")) chunks.push(chunk(model, { content: token }));
  message.toolCalls.forEach((call, index) => {
    chunks.push(chunk(model, { tool_calls: [{ index, id: toolCallId(call, index), type: "function", function: { name: call.name, arguments: "" } }] }));
    const middle = Math.floor(call.arguments.length / 2);
    for (const piece of [call.arguments.slice(0, middle), call.arguments.slice(middle)]) {
      chunks.push(chunk(model, { tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk(model, {}, finishReason(message)));
  if (includeUsage) chunks.push({ ...chunk(model, {}), choices: [], usage: usage(message.content) });
  return chunks;
}

export function sseFrame(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}
