import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { completionBody, sseFrame, streamChunks, tokenize, type FakeMessage, type FakeToolCall } from "./fake-openai-payloads";

export type { FakeToolCall } from "./fake-openai-payloads";

/** A scripted failure of the endpoint, as real servers and networks produce them. */
export type FakeFault =
  /** Any HTTP status ("429", "500", "401"...), with an OpenAI-style error body. */
  | { readonly fault: `${number}`; readonly retryAfterSeconds?: number; readonly retryAfterMs?: number; readonly retryAfter?: string; readonly message?: string }
  /** Accepts the request and never answers, until the client gives up. */
  | { readonly fault: "hang" }
  /** Starts the response (headers and a first piece of the body), then goes quiet forever. */
  | { readonly fault: "stall" }
  /** 200 with a body that is not JSON (or, when streaming, a chunk that is not). */
  | { readonly fault: "malformed_json" }
  /** A reply whose content is `bytes` long (ASCII), to test the client's size cap. */
  | { readonly fault: "huge"; readonly bytes: number }
  /** Starts the response and destroys the socket halfway. */
  | { readonly fault: "reset" }
  /** Exactly this body, streaming or not: an HTML page with 200, `{}`, `{"choices":[]}`... */
  | { readonly fault: "raw"; readonly body: string; readonly contentType?: string; readonly httpStatus?: number }
  /** Streams these SSE frames verbatim (a string is sent as is, anything else as JSON), then ends; not streaming, the first frame is the body. */
  | { readonly fault: "frames"; readonly frames: readonly unknown[] }
  /** Streams the start of `content` and ends the response cleanly, without a finish reason or [DONE]. */
  | { readonly fault: "cut_stream"; readonly content: string }
  /** 200 and `bytes` of one `piece` repeated, with no blank line (one endless event), in 64 KiB writes; `contentType` defaults to text/event-stream. */
  | { readonly fault: "endless"; readonly bytes: number; readonly piece: string; readonly contentType?: string; readonly httpStatus?: number };

/**
 * What the fake server answers to one chat completion: a reply text, an assistant message with
 * tool calls, a scripted fault, or (the original form, kept for existing tests) a raw HTTP error.
 */
export type FakeReply =
  | string
  /** `chunkDelayMs` spaces a streamed reply's chunks out, as a model generating them would. */
  | { readonly content?: string; readonly toolCalls?: readonly FakeToolCall[]; readonly chunkDelayMs?: number }
  | FakeFault
  | { readonly status: number; readonly body?: unknown; readonly headers?: Record<string, string> };

export interface FakeOpenAiServer {
  /** Base URL to hand to the OpenAI client, ending in /v1. */
  readonly baseURL: string;
  /** Every chat completion request body received, in order (faulted ones included). */
  readonly requests: Record<string, unknown>[];
  /** The Idempotency-Key header of each of `requests`, at the same index (undefined when absent). */
  readonly idempotencyKeys: (string | undefined)[];
  /** How many chat completion requests were received: the number of model calls made. */
  readonly count: number;
  /** Replies are served in order; the last one repeats. */
  setReplies(replies: readonly FakeReply[]): void;
  /**
   * Answers by what is asked instead of in order: `respond` sees each request body. For callers
   * that may ask the same thing twice (a crashed worker's successor repeating an unrecorded call).
   */
  setResponder(respond: (body: Record<string, unknown>) => FakeReply): void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** Writes respecting backpressure; false once the client has gone (it aborted or was cut off). */
async function write(response: ServerResponse, data: string): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return false;
  if (!response.write(data)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        response.off("drain", done).off("close", done);
        resolve();
      };
      response.on("drain", done).on("close", done);
    });
  }
  return !response.destroyed;
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

function statusFault(response: ServerResponse, fault: Extract<FakeFault, { fault: `${number}` }>) {
  const headers: Record<string, string> = {};
  if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
  if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
  if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
  const status = Number(fault.fault);
  sendJson(response, status, { error: { message: fault.message ?? `fake error ${status}`, type: "fake_error", code: null } }, headers);
}

async function sendMessage(response: ServerResponse, body: Record<string, unknown>, message: FakeMessage, chunkDelayMs = 0) {
  const model = String(body.model);
  if (body.stream !== true) return sendJson(response, 200, completionBody(model, message));
  const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const chunk of streamChunks(model, message, includeUsage)) {
    if (!(await write(response, sseFrame(chunk)))) return;
    if (chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
  }
  if (await write(response, sseFrame("[DONE]"))) response.end();
}

/** Streams a huge reply in 64 KiB tokens so a client that stops reading early can be seen to. */
async function sendHuge(response: ServerResponse, body: Record<string, unknown>, bytes: number) {
  if (body.stream !== true) return sendMessage(response, body, { content: "x".repeat(bytes), toolCalls: [] });
  const model = String(body.model);
  response.writeHead(200, { "content-type": "text/event-stream" });
  const piece = 64 * 1024;
  for (let sent = 0; sent < bytes; sent += piece) {
    const frame = { object: "chat.completion.chunk", model, choices: [{ index: 0, delta: { content: "x".repeat(Math.min(piece, bytes - sent)) }, finish_reason: null }] };
    if (!(await write(response, sseFrame(frame)))) return;
  }
  const finish = { object: "chat.completion.chunk", model, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] };
  if ((await write(response, sseFrame(finish))) && (await write(response, sseFrame("[DONE]")))) response.end();
}

/** Sends the start of a reply (headers and part of the body) and no more. */
async function sendPartial(response: ServerResponse, body: Record<string, unknown>) {
  const model = String(body.model);
  if (body.stream === true) {
    response.writeHead(200, { "content-type": "text/event-stream" });
    await write(response, sseFrame(streamChunks(model, { content: "partial", toolCalls: [] }, false)[1]));
  } else {
    const whole = JSON.stringify(completionBody(model, { content: "this reply is cut off halfway", toolCalls: [] }));
    response.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(whole)) });
    await write(response, whole.slice(0, whole.length / 2));
  }
}

async function serve(response: ServerResponse, body: Record<string, unknown>, reply: FakeReply) {
  if (typeof reply === "string") return sendMessage(response, body, { content: reply, toolCalls: [] });
  if ("status" in reply) {
    return sendJson(response, reply.status, reply.body ?? { error: { message: `fake error ${reply.status}` } }, reply.headers);
  }
  if (!("fault" in reply)) return sendMessage(response, body, { content: reply.content ?? null, toolCalls: reply.toolCalls ?? [] }, reply.chunkDelayMs);
  switch (reply.fault) {
    case "hang":
      return; // the response stays open; close() destroys it
    case "malformed_json":
      if (body.stream === true) {
        response.writeHead(200, { "content-type": "text/event-stream" }).end(`${sseFrame('{"choices": [{"delta": {"content": "br')}`);
      } else {
        response.writeHead(200, { "content-type": "application/json" }).end('{"id": "chatcmpl-broken", "choices": [{"message": {"content": "br');
      }
      return;
    case "huge":
      return sendHuge(response, body, reply.bytes);
    case "raw":
      response.writeHead(reply.httpStatus ?? 200, { "content-type": reply.contentType ?? "text/html; charset=utf-8" }).end(reply.body);
      return;
    case "frames":
      if (body.stream !== true) return sendJson(response, 200, reply.frames[0] ?? null);
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (const frame of reply.frames) if (!(await write(response, sseFrame(frame)))) return;
      response.end();
      return;
    case "endless": {
      response.writeHead(reply.httpStatus ?? 200, { "content-type": reply.contentType ?? "text/event-stream" });
      const block = reply.piece.repeat(Math.max(1, Math.floor(65_536 / reply.piece.length)));
      for (let sent = 0; sent < reply.bytes; sent += block.length) if (!(await write(response, block))) return;
      response.end();
      return;
    }
    case "cut_stream": {
      const chunks = streamChunks(String(body.model), { content: reply.content, toolCalls: [] }, false);
      if (body.stream !== true) {
        const whole = JSON.stringify(completionBody(String(body.model), { content: reply.content, toolCalls: [] }));
        response.writeHead(200, { "content-type": "application/json" }).end(whole.slice(0, whole.length / 2));
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      // Everything but the finish chunk: the reply stops mid-way and the server closes cleanly.
      for (const chunk of chunks.slice(0, -1)) if (!(await write(response, sseFrame(chunk)))) return;
      response.end();
      return;
    }
    case "stall":
      return sendPartial(response, body); // the response stays open; close() destroys it
    case "reset":
      await sendPartial(response, body);
      // Let the partial bytes reach the client before the connection drops.
      setTimeout(() => response.socket?.destroy(), 20);
      return;
    default:
      return statusFault(response, reply);
  }
}

/**
 * A real HTTP server speaking the OpenAI chat-completions protocol on 127.0.0.1, for tests:
 * the product's own `openai` client talks to it exactly as it would to OpenAI, Ollama or vLLM,
 * streaming (SSE) included, and it can misbehave on cue the way real endpoints do. `port` fixes
 * the port (the end-to-end tests' model); by default the system picks a free one.
 */
export async function startFakeOpenAiServer(
  initialReplies: readonly FakeReply[] = ["{}"],
  options: {
    port?: number;
    /** What GET /models lists (the Settings page's "Test connection"). */
    models?: readonly string[];
    /** Answer 401 unless requests carry `Authorization: Bearer <apiKey>`. */
    apiKey?: string;
  } = {},
): Promise<FakeOpenAiServer> {
  let replies = [...initialReplies];
  let served = 0;
  let responder: ((body: Record<string, unknown>) => FakeReply) | undefined;
  const requests: Record<string, unknown>[] = [];
  const idempotencyKeys: (string | undefined)[] = [];

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(response, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
      return;
    }
    if (request.method === "GET" && request.url?.endsWith("/models")) {
      sendJson(response, 200, { object: "list", data: (options.models ?? ["fake-model"]).map((id) => ({ id, object: "model", created: 0, owned_by: "dualstate-tests" })) });
      return;
    }
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      sendJson(response, 404, { error: { message: "not found" } });
      return;
    }
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    requests.push(body);
    const key = request.headers["idempotency-key"];
    idempotencyKeys.push(Array.isArray(key) ? key.join(",") : key);
    await serve(response, body, responder ? responder(body) : (replies[Math.min(served++, replies.length - 1)] ?? ""));
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    idempotencyKeys,
    get count() {
      return requests.length;
    },
    setReplies(next) {
      replies = [...next];
      served = 0;
      responder = undefined;
    },
    setResponder(respond) {
      responder = respond;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Hanging and keep-alive connections would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

export { tokenize };
