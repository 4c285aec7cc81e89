import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTerminalRunStatus } from "@/server/durable/lifecycle";
import { parseEnv } from "@/server/env";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { saveModelPrice } from "@/server/services/prices/model-prices";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/server/testing/fake-openai-server";
import { callUsageOf } from "@/server/usage/call-usage";
import { recordedCostUsd } from "@/server/usage/call-cost";
import { executeTurn } from "@/server/worker/execute-turn";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { tddModel } from "@/server/worker/testing/tdd-model";
import { workerOptionsFromEnv } from "@/server/worker/worker-from-env";

const ADMIN = { id: "admin", email: "admin@example.com", role: "admin", via: "session" } as const;
const MODEL = "priced-model";

/**
 * A turn that dies right after a model call's result was committed (the worker's process gone
 * before anything else is written) is retried: the retry reads the call back from the ledger. The
 * run's totals count that call once.
 */
describe.each(TEST_PROVIDERS)("a re-executed turn counts no call twice, on %s", (provider) => {
  let fixture: DurableFixture;
  let model: FakeOpenAiServer;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    model = await startFakeOpenAiServer([], { models: [MODEL] });
    model.setResponder(tddModel());
    await saveModelPrice(fixture.database.db, { model: MODEL, inputUsdPerMillion: 3, outputUsdPerMillion: 15 }, ADMIN);
  });
  afterAll(async () => {
    await model?.close();
    await fixture?.dispose();
  });

  it("after a crash past the recorded call, the totals equal the sum of the recorded calls", async () => {
    const env = parseEnv({ DATABASE_URL: fixture.database.url, OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: "test", OPENAI_MODEL: MODEL });
    let crashes = 1;
    const options = workerOptionsFromEnv(env, {
      // Thrown where a killed worker would stop: the call and its usage are committed, nothing after.
      crashAt: (point) => {
        if (point === "model-recorded" && crashes-- > 0) throw new Error("worker died after recording the call");
      },
    });
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache" });
    const outcomes: string[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      if (isTerminalRunStatus(run.status)) break;
      if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status} after a minute (turns: ${outcomes.join(", ")})`);
      const turn = await fixture.store.claim("replay-test", 30_000, runId);
      if (turn) outcomes.push(await executeTurn(fixture.store, turn, options));
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The crashed turn was deferred and the next one finished the run.
    expect(outcomes[0]).toBe("deferred");
    expect(outcomes.at(-1)).toBe("succeeded");

    const calls = (await fixture.database.db.ledgerEntry.findMany({ where: { runId, type: "action_result" }, select: { payload: true } })).map((entry) => entry.payload);
    expect(model.requests).toHaveLength(calls.length);
    const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.promptTokens).toBe(calls.reduce((sum: number, call) => sum + (callUsageOf(call)?.promptTokens ?? 0), 0));
    expect(run.completionTokens).toBe(calls.reduce((sum: number, call) => sum + (callUsageOf(call)?.completionTokens ?? 0), 0));
    expect(run.costUsd).toBeCloseTo(calls.reduce((sum: number, call) => sum + recordedCostUsd(call), 0), 9);
  });
});
