import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/server/testing/fake-openai-server";
import { createDoorbell } from "@/server/durable/doorbell";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { promptOf, tddModel } from "@/server/worker/testing/tdd-model";
import { isServiceError } from "../../errors";
import { compareRuns } from "../compare/compare-runs";
import { getRunDetail } from "../get-run-detail";
import { findForkPoint } from "./find-fork-point";
import { forkRun } from "./fork-run";

const providers = TEST_PROVIDERS;

describe.each(providers)("forking a run on %s", (provider) => {
  let fixture: DurableFixture;
  let model: FakeOpenAiServer;
  let worker: RunWorker;
  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    model = await startFakeOpenAiServer();
    model.setResponder(tddModel());
    const compile = { endpoint: { baseURL: model.baseURL, apiKey: "test-key", model: "fake-model" } };
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile, concurrency: 1, pollMs: 100 });
    worker.start();
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await model.close();
    await fixture.dispose();
  });

  const db = () => fixture.database.db;
  async function ended(runId: string) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
      if (["succeeded", "failed", "cancelled", "suspended"].includes(run.status)) return run;
      if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const ledgerOf = (runId: string) => db().ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
  const attemptOf = async (runId: string, step: string, attempt: number) => (await db().artifact.findFirstOrThrow({ where: { runId, stepName: step, attempt } })).id;

  it("replay: seeds exactly the results before the forked attempt, generates it anew with the edited feedback, then goes on", async () => {
    const { runId: originalId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache", generatorOverride: fixture.replay("tdd-lru-cache") });
    expect((await ended(originalId)).status).toBe("succeeded");
    const originalLedger = await ledgerOf(originalId);

    const { id } = await forkRun(db(), { id: originalId, artifactId: await attemptOf(originalId, "implement", 2), feedback: "Move a key to the end on get." }, "ada@example.com");
    const seeded = await ledgerOf(id);
    expect(seeded.map((entry) => `${entry.type} ${entry.callKey}`)).toEqual(["run.forked fork", "action_result result:write_tests/attempt-1/replay", "action_result result:implement/attempt-1/replay"]);
    expect(seeded[0]?.payload).toMatchObject({ fromRunId: originalId, attemptKey: "implement/attempt-2", feedback: "Move a key to the end on get.", prompt: null, reusedResults: 2, forkedBy: "ada@example.com" });
    // Copied as recorded, so the replay reads back exactly what the original got.
    expect(seeded[1]?.payload).toEqual(originalLedger.find((entry) => entry.callKey === "result:write_tests/attempt-1/replay")?.payload);

    const fork = await ended(id);
    expect(fork.status).toBe("succeeded");
    expect([fork.forkedFromRunId, fork.forkedFromAttempt]).toEqual([originalId, "implement/attempt-2"]);
    const ledger = await ledgerOf(id);
    // One call made for real: the forked attempt's.
    expect(ledger.filter((entry) => entry.type === "action_call").map((entry) => (entry.payload as { payload: unknown }).payload)).toEqual([{ step: "implement", attempt: 2 }]);
    const generated = ledger.filter((entry) => entry.type === "generator.completed").map((entry) => entry.payload as { step: string; attempt: number; metadata: { replayed: boolean; prompt: string } });
    expect(generated.map((g) => `${g.step}/${g.attempt} replayed=${g.metadata.replayed}`)).toEqual(["write_tests/1 replayed=true", "implement/1 replayed=true", "implement/2 replayed=false"]);
    expect(generated[2]?.metadata.prompt).toContain("Move a key to the end on get.");
    const originalFeedback = (await db().artifact.findFirstOrThrow({ where: { runId: originalId, stepName: "implement", attempt: 1 } })).feedback;
    expect(originalFeedback).not.toBe("");
    expect(generated[2]?.metadata.prompt).not.toContain(originalFeedback);

    const detail = await getRunDetail(db(), { id });
    expect(detail.forkedFrom).toEqual({ runId: originalId, attemptKey: "implement/attempt-2", feedback: "Move a key to the end on get.", prompt: null, forkedBy: "ada@example.com" });
    // A replayed attempt says so: forking it gives the cassette's same answer.
    expect((await findForkPoint(db(), originalId, await attemptOf(originalId, "implement", 2))).generator).toBe("replay");
    expect(detail.attempts.map((a) => `${a.stepName}/${a.attempt}:${a.passed}`)).toEqual(["write_tests/1:true", "implement/1:false", "implement/2:true"]);
  });

  it("model: the fork calls the model only from the forked attempt on, with the edited feedback in its prompt", async () => {
    const { runId: originalId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache" });
    expect((await ended(originalId)).status).toBe("succeeded");
    expect((await db().artifact.findMany({ where: { runId: originalId } })).length).toBe(3);

    const before = model.count;
    const { id } = await forkRun(db(), { id: originalId, artifactId: await attemptOf(originalId, "implement", 1), feedback: "Evict the least recently used key." }, "ada@example.com");
    const fork = await ended(id);
    expect(fork.status).toBe("succeeded");
    // write_tests came from the original's ledger; implement attempt 1 was asked anew, with the edit, and passed.
    expect(model.requests.slice(before).map(promptOf)).toEqual([expect.stringContaining("The last attempt failed: Evict the least recently used key.")]);
    const attempts = await db().artifact.findMany({ where: { runId: id }, orderBy: [{ createdAt: "asc" }, { attempt: "asc" }] });
    expect(attempts.map((a) => `${a.stepName}/${a.attempt}:${a.passed}`)).toEqual(["write_tests/1:true", "implement/1:true"]);

    // Side by side: the reused tests are the same, the regenerated implementation differs, the original's retry has no counterpart.
    const comparison = await compareRuns(db(), { a: originalId, b: id });
    // The edit that made the difference travels with the comparison.
    expect(comparison.b.forkedFrom).toEqual({ runId: originalId, attemptKey: "implement/attempt-1", feedback: "Evict the least recently used key.", prompt: null, forkedBy: "ada@example.com" });
    // Who forked it started the new run (a quorum may refuse them approving it).
    expect((await db().run.findUniqueOrThrow({ where: { id }, select: { startedBy: true } })).startedBy).toBe("ada@example.com");
    expect((await findForkPoint(db(), originalId, await attemptOf(originalId, "implement", 1))).generator).toBe("openai");
    expect(comparison.attempts.map((pair) => `${pair.key} ${pair.a ? "a" : "-"}${pair.b ? "b" : "-"} same=${pair.sameContent}`)).toEqual([
      "write_tests/attempt-1 ab same=true",
      "implement/attempt-1 ab same=false",
      "implement/attempt-2 a- same=false",
    ]);
    expect(comparison.attempts[1]?.diff?.some((line) => line.kind === "added")).toBe(true);
  });

  it("refuses an attempt the run does not have, naming it", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache", generatorOverride: fixture.replay("tdd-lru-cache") });
    await ended(runId);
    const error = await forkRun(db(), { id: runId, artifactId: "no-such-artifact" }, "ada@example.com").catch((caught: unknown) => caught);
    expect(isServiceError(error) && error.code).toBe("NOT_FOUND");
    expect((error as Error).message).toContain("no-such-artifact");
  });
});
