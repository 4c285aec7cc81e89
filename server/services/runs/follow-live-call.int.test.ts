import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/server/testing/fake-openai-server";
import { createDoorbell } from "@/server/durable/doorbell";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { tddModel } from "@/server/worker/testing/tdd-model";
import { followLiveCall, type LiveCall } from "./follow-live-call";

const providers = TEST_PROVIDERS;

describe.each(providers)("live tokens of a model call on %s", (provider) => {
  let fixture: DurableFixture;
  let model: FakeOpenAiServer;
  let worker: RunWorker;
  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    model = await startFakeOpenAiServer();
    // About 8 characters every 15 ms: each reply streams for a second or so.
    model.setResponder(tddModel(15));
    const compile = { endpoint: { baseURL: model.baseURL, apiKey: "test-key", model: "fake-model" } };
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile, concurrency: 1, pollMs: 100 });
    worker.start();
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await model.close();
    await fixture.dispose();
  });

  it("the worker writes the streamed text while the call runs and clears it when the result is recorded", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache" });
    const seen: (LiveCall | null)[] = [];
    for await (const live of followLiveCall(fixture.database.db, runId, AbortSignal.timeout(30_000), 50)) seen.push(live);

    const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("succeeded");
    expect(await fixture.database.db.liveCall.count({ where: { runId } })).toBe(0);

    const replies = (await fixture.database.db.ledgerEntry.findMany({ where: { runId, type: "action_result" }, orderBy: { seq: "asc" } })).map((entry) => String((entry.payload as { content: unknown }).content));
    expect(replies).toHaveLength(3);
    const calls = ["write_tests/1", "implement/1", "implement/2"];
    calls.forEach((call, index) => {
      const texts = seen.flatMap((live) => (live && `${live.stepName}/${live.attempt}` === call ? [live.text] : []));
      // Several growing previews of the call's reply, each a part of what it finally said.
      expect(texts.length, call).toBeGreaterThanOrEqual(2);
      texts.forEach((text, i) => {
        expect(replies[index]!.startsWith(text), call).toBe(true);
        if (i > 0) expect(text.length).toBeGreaterThan(texts[i - 1]!.length);
      });
    });
    // Cleared between calls and at the end: a preview never outlives its call.
    const order = seen.map((live) => (live ? `${live.stepName}/${live.attempt}` : null)).filter((key, i, all) => key !== all[i - 1]);
    expect(order).toEqual([null, "write_tests/1", null, "implement/1", null, "implement/2", null]);
  });
});
