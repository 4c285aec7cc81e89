import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake server answers to one chat completion: a reply text, or an HTTP error. */
export type FakeReply = string | { readonly status: number; readonly body?: unknown; readonly headers?: Record<string, string> };

export interface FakeOpenAiServer {
  /** Base URL to hand to the OpenAI client, ending in /v1. */
  readonly baseURL: string;
  /** Every chat completion request body received, in order. */
  readonly requests: Record<string, unknown>[];
  /** Replies are served in order; the last one repeats. */
  setReplies(replies: readonly FakeReply[]): void;
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

function completion(model: string, content: string) {
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: content.length, total_tokens: 10 + content.length },
  };
}

/**
 * A real HTTP server speaking the OpenAI chat-completions protocol on 127.0.0.1, for tests:
 * the product's own `openai` client talks to it exactly as it would to OpenAI, Ollama or vLLM.
 */
export async function startFakeOpenAiServer(initialReplies: readonly FakeReply[] = ["{}"]): Promise<FakeOpenAiServer> {
  let replies = [...initialReplies];
  let served = 0;
  const requests: Record<string, unknown>[] = [];

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    requests.push(body);
    const reply = replies[Math.min(served++, replies.length - 1)] ?? "";
    if (typeof reply !== "string") {
      response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(JSON.stringify(reply.body ?? { error: { message: `fake error ${reply.status}` } }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion(String(body.model), reply)));
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    setReplies(next) {
      replies = [...next];
      served = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
