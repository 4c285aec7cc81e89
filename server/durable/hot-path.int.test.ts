import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresUrl, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { createDurableFixture, type DurableFixture } from "../worker/testing/durable-fixture";
import { executeTurn } from "../worker/execute-turn";
import { DurableStore } from "./durable-store";
import { derivedId, timeOrderedId } from "./ids";
import type { ClaimedTurn, TurnBatch } from "./types";

const turnOptions = { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile: {} };
const providers = TEST_PROVIDERS;

describe("ids", () => {
  it("derives stable artifact ids that share the time prefix of a time-ordered run id", () => {
    const runId = timeOrderedId(Date.UTC(2026, 10, 24));
    const first = derivedId(runId, "write_tests/1");
    expect(derivedId(runId, "write_tests/1")).toBe(first);
    expect(derivedId(runId, "write_tests/2")).not.toBe(first);
    expect(first.slice(0, 13)).toBe(runId.slice(0, 13));
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("falls back to the hash for run ids that are not time-ordered", () => {
    const runId = "3f2a9c4e-1b2d-4c5e-8f90-123456789abc";
    expect(derivedId(runId, "k").slice(0, 8)).not.toBe(runId.slice(0, 8));
  });
});

describe.each(providers)("the run store's hot path on %s", (provider) => {
  let fixture: DurableFixture;
  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
  });
  afterAll(async () => {
    await fixture.dispose();
  });

  it("gives runs and inbox messages time-ordered ids", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "ids" });
    expect(runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const [message] = await fixture.database.db.inboxMessage.findMany({ where: { runId } });
    expect(message?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    // Leave nothing claimable for the next tests.
    await fixture.database.db.inboxMessage.updateMany({ where: { runId }, data: { status: "done" } });
  });

  it("a claim carries the same snapshot loadTurn reads (PostgreSQL reads it in the claim's statement)", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["agent-loop"]!, specification: "snapshot", contextValues: { should_restart: false } });
    const turn = await fixture.store.claim("w-snapshot", 5_000, runId);
    expect(turn).not.toBeNull();
    const loaded = await fixture.store.loadTurn(runId);
    if (provider === "postgres") expect(turn?.snapshot).toEqual(loaded);
    else expect(turn?.snapshot).toBeUndefined();
    expect(loaded.specification).toBe("snapshot");
    expect(loaded.lastSeq).toBe(0);
  });

  it("a snapshot carries the run's artifacts with their dependencies, exactly as getArtifact reads each", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "artifacts", generatorOverride: fixture.replay("tdd-lru-cache") });
    const turn = await fixture.store.claim("w-artifacts", 5_000, runId);
    expect(await executeTurn(fixture.store, turn!, turnOptions)).toBe("succeeded");
    const { artifacts } = await fixture.store.loadTurn(runId);
    expect(artifacts.map((stored) => `${stored.stepName}/${stored.artifact.version}:${stored.result.passed}`).sort()).toEqual(["implement/1:false", "implement/2:true", "write_tests/1:true"]);
    const tests = artifacts.find((stored) => stored.stepName === "write_tests")!;
    for (const stored of artifacts) {
      expect(await fixture.store.getArtifact(runId, stored.artifact.id)).toEqual(stored);
      if (stored.stepName === "implement") expect(Object.values(stored.dependencyIds)).toEqual([tests.artifact.id]);
    }
    expect(await fixture.store.getArtifact(runId, "no-such-artifact")).toBeUndefined();
  });

  it("a turn resumed by an approval commits the state it leads to on its own, before the next step's attempt", async () => {
    const batches: { runId: string; batch: TurnBatch }[] = [];
    class RecordingStore extends DurableStore {
      override async commit(turn: ClaimedTurn, batch: TurnBatch): Promise<void> {
        batches.push({ runId: turn.runId, batch });
        return super.commit(turn, batch);
      }
    }
    const store = new RecordingStore(fixture.store.sql);
    const { runId } = await store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "resume", generatorOverride: fixture.replay("sandbox-escalation") });
    const first = await store.claim("w-resume", 5_000, runId);
    expect(await executeTurn(store, first!, turnOptions)).toBe("suspended");
    const escalation = await fixture.database.db.escalation.findFirstOrThrow({ where: { runId } });
    await store.resolveEscalation({ escalationId: escalation.id, decision: { decision: "approve", decidedBy: "ada" } });
    batches.length = 0;
    const resumed = await store.claim("w-resume", 5_000, runId);
    expect(resumed?.kind).toBe("resume");
    await executeTurn(store, resumed!, turnOptions);
    const firstOfResumed = batches.find((entry) => entry.runId === runId)?.batch;
    expect(firstOfResumed?.ledger.map((row) => row.type)).toEqual(["state.advanced"]);
  });
});

describe.runIf(Boolean(testPostgresUrl))("PostgreSQL specifics", () => {
  let fixture: DurableFixture;
  beforeAll(async () => {
    fixture = await createDurableFixture("postgres");
  });
  afterAll(async () => {
    await fixture.dispose();
  });

  it("runs statements meant not to wait for the disk with synchronous_commit off, and the rest with it on", async () => {
    const [off] = await fixture.store.sql.queryWithoutWaitingForDisk<{ synchronous_commit: string }>("SHOW synchronous_commit");
    const [on] = await fixture.store.sql.query<{ synchronous_commit: string }>("SHOW synchronous_commit");
    expect(off?.synchronous_commit).toBe("off");
    expect(on?.synchronous_commit).toBe("on");
  });

  it("gathers planner statistics for never-analysed queue tables, so claims walk the due index", async () => {
    const analysed = async () =>
      (await fixture.store.sql.query<{ relname: string }>(`SELECT "relname" FROM pg_stat_user_tables WHERE "relname" IN ('InboxMessage', 'Run') AND ("last_analyze" IS NOT NULL OR "last_autoanalyze" IS NOT NULL) ORDER BY "relname"`)).map((row) => row.relname);
    await fixture.store.ensurePlannerStatistics();
    expect(await analysed()).toEqual(["InboxMessage", "Run"]);
  });
});
