import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CallFailedError } from "../../engine";
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeReply } from "../../testing/fake-openai-server";
import type { ChatMessage, ChatRequest } from "./chat-model";
import { createOpenAiChatModel, type OpenAiChatModelOptions } from "./openai-chat-model";

const USER: ChatMessage[] = [{ role: "user", content: "Write add()" }];
/** Put in hostile bodies: a failure message must never repeat what the endpoint sent. */
const SECRET = "SECRET-MARKER-7f3a";
const HTML = `<!DOCTYPE html><html><head><title>Sign in ${SECRET}</title></head><body>Please sign in</body></html>`;

const chunk = (delta: unknown, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  object: "chat.completion.chunk",
  model: "m",
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});

describe("replies that break the protocol are failed calls, retried with backoff, never an empty reply", () => {
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

  const model = (options: OpenAiChatModelOptions = {}) =>
    createOpenAiChatModel({ baseURL: server.baseURL, apiKey: "k", maxRetries: 2, sleep: async (ms) => void sleeps.push(ms), ...options });
  const modes: [string, Partial<ChatRequest>][] = [
    ["whole", {}],
    ["streamed", { onToken: () => undefined }],
  ];

  async function failure(reply: FakeReply, request: Partial<ChatRequest> = {}): Promise<CallFailedError> {
    server.setReplies([reply]);
    const error = await model()
      .complete({ model: "m", messages: USER, ...request })
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(CallFailedError);
    const failed = error as CallFailedError;
    expect(failed.code).toBe("MALFORMED_RESPONSE");
    // Retried with the bounded exponential backoff: maxRetries + 1 requests, maxRetries waits.
    expect(server.count).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(failed.message).toContain("gave up after 3 attempts");
    expect(failed.message).not.toContain(SECRET);
    return failed;
  }

  describe.each(modes)("%s", (_mode, request) => {
    it("an HTML page with status 200 names itself as one", async () => {
      const error = await failure({ fault: "raw", body: HTML, contentType: "text/html; charset=utf-8" }, request);
      expect(error.message).toContain("the endpoint answered with an HTML page, not a chat completion (status 200, text/html)");
    });

    it.each([
      ["{}", "it has no choices"],
      ['{"choices":[]}', "its choices list is empty"],
      ['{"choices":[{"index":0,"finish_reason":"stop"}]}', "choices[0] has no message"],
      ['{"choices":[{"message":"hello"}]}', "choices[0].message is a string"],
      ['{"choices":[{"message":{"content":42}}]}', "choices[0].message.content is a number, not text"],
      [`{"error":{"message":"${SECRET}"}}`, "it holds an error object instead of choices"],
      ["[1,2,3]", "the body is a list, not an object"],
      [`{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c","type":"function"}]}}]}`, "tool_calls[0] is not a function call"],
    ])("JSON that is not a completion (%s) is malformed: %s", async (body, why) => {
      // Sent as application/json: a streaming request gets it too when a server ignores `stream`.
      const error = await failure({ fault: "raw", body, contentType: "application/json" }, request);
      expect(error.message).toContain(why);
    });

    it("a body that is not JSON says so without repeating it", async () => {
      const error = await failure({ fault: "raw", body: `upstream ${SECRET} timed out`, contentType: "application/json" }, request);
      expect(error.message).toContain("a body that is not JSON, not a chat completion (status 200, application/json");
    });

    it("an HTML page labelled as JSON is still recognised as HTML", async () => {
      const error = await failure({ fault: "raw", body: HTML, contentType: "application/json" }, request);
      expect(error.message).toContain("HTML page");
    });

    it("recovers when a retry brings a sound reply", async () => {
      server.setReplies([{ fault: "raw", body: HTML }, { fault: "raw", body: "{}", contentType: "application/json" }, "def add(a, b): return a + b"]);
      const reply = await model().complete({ model: "m", messages: USER, ...request });
      expect(reply).toMatchObject({ content: "def add(a, b): return a + b", attempts: 3 });
    });
  });

  describe("streams", () => {
    const streamed = { onToken: () => undefined };

    it("a stream that ends mid-way without a finish reason is malformed, not a short reply", async () => {
      const error = await failure({ fault: "cut_stream", content: "def add(a, b):\n    return a + b\n" }, streamed);
      expect(error.message).toContain("the stream ended before the reply was finished (no finish_reason");
    });

    it("an event stream with no events at all is malformed", async () => {
      const error = await failure({ fault: "raw", body: `: keep-alive ${SECRET}\n\n`, contentType: "text/event-stream" }, streamed);
      expect(error.message).toContain("no finish_reason");
    });

    it.each([
      ["a chunk that is not JSON", ["not json at all"]],
      ["a chunk that is null", ["null", chunk({}, "stop")]],
      ["a chunk that is a number", ["42", chunk({}, "stop")]],
      ["choices that are not a list", [{ choices: "x" }, chunk({}, "stop")]],
      ["content that is not text", [chunk({ content: 5 }), chunk({}, "stop")]],
      ["a tool call index far out of range", [chunk({ tool_calls: [{ index: 1e9, function: { name: "a", arguments: "{}" } }] }), chunk({}, "tool_calls")]],
      ["a negative tool call index", [chunk({ tool_calls: [{ index: -1, function: { name: "a" } }] }), chunk({}, "tool_calls")]],
      ["a finish reason that is not text", [chunk({ content: "x" }, 7 as never)]],
    ])("%s is malformed", async (_name, frames) => {
      await failure({ fault: "frames", frames }, streamed);
    });

    it("a server that ignores `stream: true` and answers with a whole completion is read as one", async () => {
      server.setReplies([{ fault: "raw", body: JSON.stringify({ model: "m", choices: [{ message: { content: "whole" }, finish_reason: "stop" }] }), contentType: "application/json" }]);
      const tokens: string[] = [];
      const reply = await model().complete({ model: "m", messages: USER, onToken: (token) => tokens.push(token) });
      expect(reply).toMatchObject({ content: "whole", finishReason: "stop", attempts: 1 });
      expect(tokens).toEqual(["whole"]);
    });
  });

  describe("benign replies real servers send stay fine", () => {
    it("whitespace content is a reply (the engine, not the protocol, decides it is no answer)", async () => {
      for (const request of [{}, { onToken: () => undefined }]) {
        server.setReplies(["  \n  "]);
        expect(await model().complete({ model: "m", messages: USER, ...request })).toMatchObject({ content: "  \n  ", attempts: 1 });
      }
    });

    it("content null with tool calls is a normal agent turn, whole and streamed", async () => {
      for (const request of [{}, { onToken: () => undefined }]) {
        server.setReplies([{ content: null as never, toolCalls: [{ name: "read_dependency", arguments: '{"name":"test"}' }] }]);
        const reply = await model().complete({ model: "m", messages: USER, ...request });
        expect(reply).toMatchObject({ content: "", finishReason: "tool_calls", toolCalls: [{ name: "read_dependency", arguments: '{"name":"test"}' }] });
      }
    });

    it("a reasoning model's reply (reasoning fields beside the content) keeps its content", async () => {
      const body = { model: "r1", choices: [{ message: { role: "assistant", content: "x = 1", reasoning_content: "Let me think.", reasoning: "Let me think." }, finish_reason: "stop" }] };
      server.setReplies([{ fault: "raw", body: JSON.stringify(body), contentType: "application/json" }]);
      expect(await model().complete({ model: "m", messages: USER })).toMatchObject({ content: "x = 1", model: "r1" });
      const frames = [chunk({ role: "assistant", reasoning_content: "Let me" }), chunk({ reasoning_content: " think." }), chunk({ content: "x = 1" }), chunk({}, "stop"), "[DONE]"];
      server.setReplies([{ fault: "frames", frames }]);
      expect(await model().complete({ model: "m", messages: USER, onToken: () => undefined })).toMatchObject({ content: "x = 1", finishReason: "stop" });
    });

    it("tolerates arguments sent as an object, content as text parts, and calls without ids", async () => {
      const body = {
        choices: [{ message: { content: [{ type: "text", text: "Reading " }, { type: "text", text: "it." }], tool_calls: [{ function: { name: "read", arguments: { path: "a.py" } } }] }, finish_reason: "tool_calls" }],
      };
      server.setReplies([{ fault: "raw", body: JSON.stringify(body), contentType: "application/json" }]);
      const reply = await model().complete({ model: "m", messages: USER });
      expect(reply).toMatchObject({ content: "Reading it.", toolCalls: [{ id: "call_1", name: "read", arguments: '{"path":"a.py"}' }], model: "m", usage: null });
    });

    it("a stream without the usage chunk or [DONE], ended by its finish reason, is complete", async () => {
      server.setReplies([{ fault: "frames", frames: [chunk({ content: "ok" }), chunk({}, "stop")] }]);
      expect(await model().complete({ model: "m", messages: USER, onToken: () => undefined })).toMatchObject({ content: "ok", finishReason: "stop", attempts: 1 });
    });
  });
});

describe("what the client holds in memory is bounded, whatever the endpoint sends", () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));

  const model = () => createOpenAiChatModel({ baseURL: server.baseURL, apiKey: "k", sleep: async () => undefined });
  const MB40 = 40 * 1024 * 1024;

  it.each([
    ["one endless event", { fault: "endless", bytes: MB40, piece: "data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }],
    ["short data lines that never end the event", { fault: "endless", bytes: MB40, piece: "data: x\n" }],
  ] as const)("%s stops at 32 MiB with RESPONSE_TOO_LARGE, not retried", async (_name, reply) => {
    server.setReplies([reply]);
    const error = await model()
      .complete({ model: "m", messages: USER, onToken: () => undefined })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "CallFailedError", code: "RESPONSE_TOO_LARGE" });
    expect(server.count).toBe(1);
  });

  it("a 40 MB error body is read no further than 32 MiB; the 500 is retried like any other", async () => {
    server.setReplies([{ fault: "endless", bytes: MB40, piece: "x", contentType: "text/plain", httpStatus: 500 }]);
    const error = await createOpenAiChatModel({ baseURL: server.baseURL, apiKey: "k", maxRetries: 1, sleep: async () => undefined })
      .complete({ model: "m", messages: USER })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "CallFailedError", code: "SERVER_ERROR", message: expect.stringContaining("more than 33554432 bytes in one piece; stopped reading") });
    expect(server.count).toBe(2);
  });

  it("a reasoning model thinking through 40 MB of streamed events still answers: only one event is bounded, not the stream", async () => {
    const thinking = chunk({ reasoning_content: "hmm ".repeat(40) });
    const frames = [...Array.from({ length: Math.ceil(MB40 / JSON.stringify(thinking).length) }, () => thinking), chunk({ content: "x = 1" }), chunk({}, "stop")];
    server.setReplies([{ fault: "frames", frames }]);
    const reply = await model().complete({ model: "m", messages: USER, onToken: () => undefined });
    expect(reply).toMatchObject({ content: "x = 1", finishReason: "stop", attempts: 1 });
  });
});
