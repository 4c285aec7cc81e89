import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallFailedError } from "../../engine";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import { createOpenAiChatModel } from "./openai-chat-model";

const request = { model: "fake-model", messages: [{ role: "user" as const, content: "hi" }] };

describe("a model call has an upper bound and stops when the run is cancelled", () => {
  let fake: FakeOpenAiServer;
  beforeAll(async () => {
    fake = await startFakeOpenAiServer();
  });
  afterAll(() => fake.close());

  it.each([false, true])("a hanging endpoint (streaming: %s) with a 10-minute timeout: the abort ends the call at once with the signal's reason, not a recorded failure", async (streaming) => {
    fake.setReplies([{ fault: "hang" }]);
    const model = createOpenAiChatModel({ baseURL: fake.baseURL, apiKey: "test", timeoutMs: 600_000 });
    const controller = new AbortController();
    const reason = new Error("cancelled");
    const before = fake.count;
    setTimeout(() => controller.abort(reason), 200);
    const started = performance.now();
    const outcome = model.complete({ ...request, signal: controller.signal, ...(streaming ? { onToken: () => {} } : {}) });
    await expect(outcome).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(fake.count - before).toBe(1); // not retried
  });

  it("an abort during the backoff between retries ends the wait too", async () => {
    fake.setReplies([{ fault: "503", retryAfterSeconds: 50 }]);
    const model = createOpenAiChatModel({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 5 });
    const controller = new AbortController();
    const reason = new Error("cancelled");
    setTimeout(() => controller.abort(reason), 300);
    const started = performance.now();
    await expect(model.complete({ ...request, signal: controller.signal })).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("retries stop at the call's total time limit, with a reason that says so", async () => {
    fake.setReplies([{ fault: "500" }]);
    const model = createOpenAiChatModel({ baseURL: fake.baseURL, apiKey: "test", maxRetries: 10, backoff: { baseMs: 400, maxMs: 400 }, maxTotalMs: 1_000 });
    const started = performance.now();
    const error = await model.complete(request).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(CallFailedError);
    expect((error as Error).message).toMatch(/the call's total time limit of 1 s was reached/);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
