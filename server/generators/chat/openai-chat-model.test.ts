import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CallFailedError } from "../../engine";
import { startFakeOpenAiServer, tokenize, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import type { ChatMessage } from "./chat-model";
import { createOpenAiChatModel, DEFAULT_MAX_REPLY_BYTES, type OpenAiChatModelOptions } from "./openai-chat-model";

const USER: ChatMessage[] = [{ role: "user", content: "Write add()" }];

describe("OpenAI chat model against an OpenAI-compatible server", () => {
  let server: FakeOpenAiServer;
  let sleeps: number[];

  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.splice(0);
    sleeps = [];
  });

  // Tests record the backoff instead of waiting for it.
  const model = (options: OpenAiChatModelOptions = {}) =>
    createOpenAiChatModel({ baseURL: server.baseURL, apiKey: "k", sleep: async (ms) => void sleeps.push(ms), ...options });

  async function failure(promise: Promise<unknown>): Promise<CallFailedError> {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CallFailedError);
    return error as CallFailedError;
  }

  describe("replies", () => {
    it("returns a plain reply with model, usage, finish reason, latency and one attempt", async () => {
      server.setReplies(["def add(a, b): return a + b"]);
      const reply = await model().complete({ model: "coder", messages: [{ role: "system", content: "Be terse" }, ...USER], temperature: 0.2 });
      expect(reply).toMatchObject({ content: "def add(a, b): return a + b", toolCalls: [], model: "coder", finishReason: "stop", truncated: false, attempts: 1 });
      expect(reply.usage).toEqual({ promptTokens: 10, completionTokens: 27, totalTokens: 37 });
      expect(reply.latencyMs).toBeGreaterThanOrEqual(0);
      expect(server.count).toBe(1);
      expect(server.requests[0]).toMatchObject({ model: "coder", temperature: 0.2, messages: [{ role: "system", content: "Be terse" }, { role: "user", content: "Write add()" }] });
      expect(server.requests[0]).not.toHaveProperty("stream");
      expect(server.requests[0]).not.toHaveProperty("tools");
    });

    it("sends tools in the function shape and reads tool calls back", async () => {
      server.setReplies([{ content: "Reading it first.", toolCalls: [{ name: "read_file", arguments: '{"path": "a.py"}' }] }]);
      const tools = [{ name: "read_file", description: "Reads a file", parameters: { type: "object", properties: { path: { type: "string" } } } }];
      const reply = await model().complete({ model: "m", messages: USER, tools });
      expect(reply).toMatchObject({ content: "Reading it first.", finishReason: "tool_calls", toolCalls: [{ id: "call_fake_1", name: "read_file", arguments: '{"path": "a.py"}' }] });
      expect(server.requests[0]?.tools).toEqual([{ type: "function", function: tools[0] }]);
    });

    it("sends an assistant turn with tool calls and the tool's answer in the wire shape", async () => {
      server.setReplies(["done"]);
      const messages: ChatMessage[] = [
        ...USER,
        { role: "assistant", content: null, toolCalls: [{ id: "c1", name: "run", arguments: "{}" }] },
        { role: "tool", toolCallId: "c1", content: "ok" },
      ];
      await model().complete({ model: "m", messages });
      expect(server.requests[0]?.messages).toEqual([
        { role: "user", content: "Write add()" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "run", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ]);
    });
  });

  describe("streaming", () => {
    it("hands each token to onToken in order; the content is their concatenation; usage comes in the last chunk", async () => {
      const text = "```python\ndef add(a, b):\n    return a + b  # ünïcødé 🙂\n```";
      server.setReplies([text]);
      const tokens: string[] = [];
      const reply = await model().complete({ model: "m", messages: USER, onToken: (token) => tokens.push(token) });
      expect(tokens).toEqual(tokenize(text));
      expect(tokens.length).toBeGreaterThan(3);
      expect(reply.content).toBe(tokens.join(""));
      expect(reply).toMatchObject({ content: text, finishReason: "stop", truncated: false, attempts: 1, usage: { promptTokens: 10, completionTokens: text.length } });
      expect(server.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    });

    it("assembles tool calls from their streamed deltas", async () => {
      const calls = [
        { name: "read_file", arguments: '{"path": "src/a.py"}' },
        { name: "check_draft", arguments: '{"content": "def f(): pass"}' },
      ];
      server.setReplies([{ content: "Let me look.", toolCalls: calls }]);
      const reply = await model().complete({ model: "m", messages: USER, onToken: () => undefined });
      expect(reply.toolCalls).toEqual([
        { id: "call_fake_1", ...calls[0] },
        { id: "call_fake_2", ...calls[1] },
      ]);
      expect(reply).toMatchObject({ content: "Let me look.", finishReason: "tool_calls" });
    });

    it("names tool calls the server sent without an id, streamed or not", async () => {
      server.setReplies([{ toolCalls: [{ id: "", name: "a", arguments: "{}" }, { id: "", name: "b", arguments: "{}" }] }]);
      const streamed = await model().complete({ model: "m", messages: USER, onToken: () => undefined });
      const whole = await model().complete({ model: "m", messages: USER });
      for (const reply of [streamed, whole]) expect(reply.toolCalls.map((call) => call.id)).toEqual(["call_1", "call_2"]);
    });

    it("does not fail or repeat the call when the token listener throws", async () => {
      server.setReplies(["hello world"]);
      const reply = await model().complete({ model: "m", messages: USER, onToken: () => { throw new Error("listener bug"); } });
      expect(reply.content).toBe("hello world");
      expect(server.count).toBe(1);
    });
  });

  describe("retries", () => {
    it("waits as long as a 429's Retry-After says, then succeeds", async () => {
      server.setReplies([{ fault: "429", retryAfterSeconds: 7 }, "ok"]);
      const reply = await model().complete({ model: "m", messages: USER });
      expect(reply).toMatchObject({ content: "ok", attempts: 2 });
      expect(sleeps).toEqual([7000]);
      expect(server.count).toBe(2);
    });

    it("honours retry-after-ms and an HTTP-date Retry-After, and caps a long one", async () => {
      server.setReplies([{ fault: "429", retryAfterMs: 1250 }, { fault: "503", retryAfter: new Date(Date.now() + 30_000).toUTCString() }, { fault: "429", retryAfterSeconds: 3600 }, "ok"]);
      await model({ maxRetryAfterMs: 60_000 }).complete({ model: "m", messages: USER });
      expect(sleeps[0]).toBe(1250);
      expect(sleeps[1]).toBeGreaterThan(27_000); // the date has one-second resolution
      expect(sleeps[1]).toBeLessThanOrEqual(30_000);
      expect(sleeps[2]).toBe(60_000);
    });

    it("retries a 500 twice with exponential backoff and jitter, then succeeds: 3 requests", async () => {
      server.setReplies([{ fault: "500" }, { fault: "500" }, "ok"]);
      const reply = await model({ backoff: { baseMs: 400, maxMs: 10_000 } }).complete({ model: "m", messages: USER });
      expect(reply).toMatchObject({ content: "ok", attempts: 3 });
      expect(server.count).toBe(3);
      expect(sleeps).toHaveLength(2);
      expect(sleeps[0]).toBeGreaterThanOrEqual(200);
      expect(sleeps[0]).toBeLessThanOrEqual(400);
      expect(sleeps[1]).toBeGreaterThanOrEqual(400);
      expect(sleeps[1]).toBeLessThanOrEqual(800);
    });

    it("caps the backoff at maxMs", async () => {
      server.setReplies([{ fault: "502" }, { fault: "502" }, { fault: "502" }, "ok"]);
      await model({ backoff: { baseMs: 1000, maxMs: 1500 } }).complete({ model: "m", messages: USER });
      expect(Math.max(...sleeps)).toBeLessThanOrEqual(1500);
    });

    it("gives up on a persistent 500 after maxRetries + 1 requests with SERVER_ERROR naming endpoint, status and attempts", async () => {
      server.setReplies([{ fault: "500", message: "model crashed" }]);
      const error = await failure(model({ maxRetries: 3 }).complete({ model: "m", messages: USER }));
      expect(error.code).toBe("SERVER_ERROR");
      expect(error.message).toContain(`${server.baseURL}/chat/completions`);
      expect(error.message).toContain("HTTP 500");
      expect(error.message).toContain("model crashed");
      expect(error.message).toContain("after 4 attempts");
      expect(server.count).toBe(4);
      expect(sleeps).toHaveLength(3);
    });

    it("gives up on a persistent 429 with RATE_LIMITED", async () => {
      server.setReplies([{ fault: "429", retryAfterSeconds: 1 }]);
      const error = await failure(model({ maxRetries: 2 }).complete({ model: "m", messages: USER }));
      expect(error.code).toBe("RATE_LIMITED");
      expect(server.count).toBe(3);
      expect(sleeps).toEqual([1000, 1000]);
    });

    it("times out a server that never answers, retries, and fails with TIMEOUT", async () => {
      server.setReplies([{ fault: "hang" }]);
      const started = Date.now();
      const error = await failure(model({ timeoutMs: 300, maxRetries: 1 }).complete({ model: "m", messages: USER }));
      expect(error.code).toBe("TIMEOUT");
      expect(error.message).toContain("after 2 attempts");
      expect(server.count).toBe(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 300 - 20);
    });

    it("times out a stream that goes quiet after its first token (the deadline covers the body)", async () => {
      server.setReplies([{ fault: "stall" }, "recovered"]);
      const tokens: string[] = [];
      const reply = await model({ timeoutMs: 300 }).complete({ model: "m", messages: USER, onToken: (token) => tokens.push(token) });
      expect(reply).toMatchObject({ content: "recovered", attempts: 2 });
      // The failed attempt's tokens were already shown; the retry streams the new reply from its start.
      expect(tokens.join("")).toBe("partialrecovered");
    });

    it("times out a non-streamed body that stalls halfway", async () => {
      server.setReplies([{ fault: "stall" }]);
      const error = await failure(model({ timeoutMs: 300, maxRetries: 0 }).complete({ model: "m", messages: USER }));
      expect(error.code).toBe("TIMEOUT");
    });

    it("retries a malformed 200 body and fails with MALFORMED_RESPONSE", async () => {
      server.setReplies([{ fault: "malformed_json" }]);
      const error = await failure(model({ maxRetries: 2 }).complete({ model: "m", messages: USER }));
      expect(error.code).toBe("MALFORMED_RESPONSE");
      expect(server.count).toBe(3);
    });

    it("reports a malformed streamed chunk as MALFORMED_RESPONSE, and recovers when the retry is sound", async () => {
      server.setReplies([{ fault: "malformed_json" }, "fine"]);
      const reply = await model().complete({ model: "m", messages: USER, onToken: () => undefined });
      expect(reply).toMatchObject({ content: "fine", attempts: 2 });
      server.setReplies([{ fault: "malformed_json" }]);
      const error = await failure(model({ maxRetries: 0 }).complete({ model: "m", messages: USER, onToken: () => undefined }));
      expect(error.code).toBe("MALFORMED_RESPONSE");
    });

    it("retries a connection reset mid-response and fails with CONNECTION", async () => {
      server.setReplies([{ fault: "reset" }]);
      const error = await failure(model({ maxRetries: 2 }).complete({ model: "m", messages: USER }));
      expect(error.code).toBe("CONNECTION");
      expect(server.count).toBe(3);
      server.setReplies([{ fault: "reset" }]);
      const streamed = await failure(model({ maxRetries: 1 }).complete({ model: "m", messages: USER, onToken: () => undefined }));
      expect(streamed.code).toBe("CONNECTION");
    });

    it("recovers from a reset when the retry succeeds", async () => {
      server.setReplies([{ fault: "reset" }, "ok"]);
      expect(await model().complete({ model: "m", messages: USER })).toMatchObject({ content: "ok", attempts: 2 });
    });

    it("fails with CONNECTION when nothing listens", async () => {
      const closed = await startFakeOpenAiServer();
      await closed.close();
      const error = await failure(createOpenAiChatModel({ baseURL: closed.baseURL, maxRetries: 1, sleep: async () => undefined }).complete({ model: "m", messages: USER }));
      expect(error.code).toBe("CONNECTION");
      expect(error.message).toContain("after 2 attempts");
    });
  });

  describe("permanent failures are not retried", () => {
    it.each([
      ["401", "AUTH"],
      ["403", "AUTH"],
      ["400", "BAD_REQUEST"],
      ["404", "BAD_REQUEST"],
      ["422", "BAD_REQUEST"],
    ] as const)("%s → %s after exactly one request", async (status, code) => {
      server.setReplies([{ fault: status }, "never reached"]);
      const error = await failure(model().complete({ model: "m", messages: USER }));
      expect(error.code).toBe(code);
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.message).toContain("not retried");
      expect(server.count).toBe(1);
      expect(sleeps).toEqual([]);
    });
  });

  describe("size cap", () => {
    it("cuts a 5 MB non-streamed reply to maxReplyBytes and marks it truncated", async () => {
      server.setReplies([{ fault: "huge", bytes: 5_000_000 }]);
      const reply = await model().complete({ model: "m", messages: USER });
      expect(reply.truncated).toBe(true);
      expect(reply.content).toHaveLength(DEFAULT_MAX_REPLY_BYTES);
      expect(reply.attempts).toBe(1);
    });

    it("stops reading a 5 MB stream once past the cap: tokens and content hold exactly the first maxReplyBytes", async () => {
      server.setReplies([{ fault: "huge", bytes: 5_000_000 }]);
      const tokens: string[] = [];
      const reply = await model({ maxReplyBytes: 100_000 }).complete({ model: "m", messages: USER, onToken: (token) => tokens.push(token) });
      expect(reply.truncated).toBe(true);
      expect(reply.content).toHaveLength(100_000);
      expect(tokens.join("")).toBe(reply.content);
    });

    it("cuts at a character boundary, never inside a multi-byte character", async () => {
      server.setReplies(["ab" + "é".repeat(10)]);
      const reply = await model({ maxReplyBytes: 5 }).complete({ model: "m", messages: USER });
      expect(reply).toMatchObject({ content: "abé", truncated: true });
    });
  });
});

describe("OpenAI chat model: runaway bodies", () => {
  it("stops reading a non-streamed body far beyond the cap (32 MiB) and fails with RESPONSE_TOO_LARGE, not retried", async () => {
    const server = await startFakeOpenAiServer([{ fault: "huge", bytes: 40 * 1024 * 1024 }]);
    try {
      const error = await createOpenAiChatModel({ baseURL: server.baseURL, sleep: async () => undefined })
        .complete({ model: "m", messages: USER })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: "CallFailedError", code: "RESPONSE_TOO_LARGE" });
      expect(server.count).toBe(1);
    } finally {
      await server.close();
    }
  });
});
