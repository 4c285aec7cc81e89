import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_PROVIDERS } from "../persistence/testing/test-database";
import { createDoorbell } from "../durable/doorbell";
import { RunWorker } from "./run-worker";
import { createDurableFixture, type DurableFixture } from "./testing/durable-fixture";
import { sweep } from "./watchdog";
import { until } from "../testing/until";
import { cancelRun } from "../services/runs/cancel-run";
import { getRunDetail } from "../services/runs/get-run-detail";

const turnOptions = { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile: {} };

const providers = TEST_PROVIDERS;

describe.each(providers)("durable runs on %s", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;
  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { ...turnOptions, concurrency: 2, pollMs: 200, log: (line) => console.error(line) });
    worker.start();
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await fixture.dispose();
  });

  const finished = (runId: string, statuses = ["succeeded", "failed", "cancelled", "suspended"]) =>
    until(async () => {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return statuses.includes(run.status) ? run : undefined;
    });

  it("executes a queued run to success, with contiguous ledger seqs stamped with the turn's epoch", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache", generatorOverride: fixture.replay("tdd-lru-cache") });
    const run = await finished(runId);
    expect(run.status).toBe("succeeded");
    expect(run.epoch).toBe(1);
    expect(run.leaseOwner).toBeNull();
    const ledger = await fixture.database.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(ledger.map((entry) => entry.seq)).toEqual(ledger.map((_, index) => index + 1));
    expect(new Set(ledger.map((entry) => entry.epoch))).toEqual(new Set([1]));
    expect(ledger.filter((entry) => entry.type === "run.finished")).toHaveLength(1);
    const artifacts = await fixture.database.db.artifact.findMany({ where: { runId } });
    expect(artifacts.map((a) => `${a.stepName}:${a.passed}`).sort()).toEqual(["implement:false", "implement:true", "write_tests:true"]);
    const inbox = await fixture.database.db.inboxMessage.findMany({ where: { runId } });
    expect(inbox.map((message) => `${message.kind}:${message.status}:${message.epoch}`)).toEqual(["start:done:1"]);
  });

  it("suspends on a fatal verdict with a resume deadline; the watchdog's timeout fails it with 'escalation expired'", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "run a command", generatorOverride: fixture.replay("sandbox-escalation") });
    const suspended = await finished(runId);
    expect(suspended.status).toBe("suspended");
    expect(suspended.resumeDeadline).not.toBeNull();
    const [escalation] = await fixture.database.db.escalation.findMany({ where: { runId } });
    expect(escalation?.status).toBe("pending");
    expect(escalation?.decisionKey).toMatch(/\/decision$/);

    // A day passes: the deadline is behind us (moved back rather than waiting for it).
    await fixture.database.db.run.update({ where: { id: runId }, data: { resumeDeadline: new Date(Date.now() - 1000) } });
    await sweep(fixture.store);
    const failed = await finished(runId, ["failed"]);
    expect(failed.finalResult).toMatchObject({ status: "failed", reason: "escalation expired" });
    expect(failed.watchdogNote).toMatch(/expired/);
    expect((await fixture.database.db.escalation.findFirstOrThrow({ where: { runId } })).status).toBe("expired");
    const ledger = await fixture.database.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(ledger.map((entry) => entry.seq)).toEqual(ledger.map((_, index) => index + 1));
    expect(ledger.filter((entry) => entry.type === "run.finished")).toHaveLength(1);
    expect(ledger.filter((entry) => entry.type === "generator.completed")).toHaveLength(1);
  });

  it("an approval resumes the run where it stopped, without generating again", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "run a command", generatorOverride: fixture.replay("sandbox-escalation") });
    await finished(runId);
    const escalation = await fixture.database.db.escalation.findFirstOrThrow({ where: { runId } });
    const outcome = await fixture.store.resolveEscalation({ escalationId: escalation.id, decision: { decision: "approve", decidedBy: "ada" } });
    expect(outcome.ok).toBe(true);
    const again = await fixture.store.resolveEscalation({ escalationId: escalation.id, decision: { decision: "reject", decidedBy: "bob" } });
    expect(again).toEqual({ ok: false, status: "approved", decidedBy: "ada" });
    const run = await finished(runId, ["succeeded", "failed"]);
    expect(run.status).toBe("succeeded");
    const ledger = await fixture.database.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(ledger.filter((entry) => entry.type === "generator.completed")).toHaveLength(1);
    expect(ledger.filter((entry) => entry.type === "run.finished")).toHaveLength(1);
    expect(ledger.map((entry) => entry.seq)).toEqual(ledger.map((_, index) => index + 1));
    expect(run.epoch).toBe(2);
  });

  it("a cancel takes a suspended run over: cancelled, its escalation cancelled, one run.finished", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "run a command", generatorOverride: fixture.replay("sandbox-escalation") });
    await finished(runId);
    expect(await fixture.store.requestCancel(runId, "not needed")).toBe(true);
    const run = await finished(runId, ["cancelled"]);
    expect(run.finalResult).toMatchObject({ status: "failed", reason: "Cancelled: not needed" });
    expect((await fixture.database.db.escalation.findFirstOrThrow({ where: { runId } })).status).toBe("cancelled");
    expect(await fixture.store.requestCancel(runId, "again")).toBe(false);
  });

  it("a cancel from the dashboard names who cancelled: in the ledger, the result's reason and the run page's detail", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "run a command", generatorOverride: fixture.replay("sandbox-escalation") });
    await finished(runId);
    await cancelRun(fixture.database.db, { id: runId }, "alice@example.com");
    await finished(runId, ["cancelled"]);
    const detail = await getRunDetail(fixture.database.db, { id: runId });
    expect(detail.cancellation).toMatchObject({ by: "alice@example.com", reason: "cancelled from the dashboard" });
    expect(detail.cancellation?.at).toBeInstanceOf(Date);
    expect(detail.finalResult).toMatchObject({ status: "failed", reason: "Cancelled by alice@example.com: cancelled from the dashboard" });
    expect(detail.ledger.entries.map((entry) => entry.type).slice(-2)).toEqual(["run.cancelled", "run.finished"]);
  });
});
