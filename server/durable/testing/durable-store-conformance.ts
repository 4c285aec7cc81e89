/**
 * The contract of the durable store production uses (003), as a suite run on every database it
 * supports: SQLite and PostgreSQL run this same suite, so the two dialects cannot drift apart.
 * Time is the database's: expiries are moved with the dialect's own clock expressions, never
 * with this process's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DurableStore } from "../durable-store";
import { isLeaseLost } from "../errors";
import type { ClaimedTurn, TurnBatch } from "../types";

export interface DurableStoreHarness {
  readonly store: DurableStore;
  /** A workflow version runs can be queued for. */
  readonly workflowVersionId: string;
  dispose(): Promise<void>;
}

const emptyBatch: TurnBatch = { ledger: [], artifacts: [], escalations: [], head: {} };

export function describeDurableStoreConformance(name: string, openHarness: () => Promise<DurableStoreHarness>): void {
  describe(`DurableStore conformance: ${name}`, () => {
    let harness: DurableStoreHarness;
    let store: DurableStore;
    beforeAll(async () => {
      harness = await openHarness();
      store = harness.store;
    });
    afterAll(async () => harness?.dispose());

    const d = () => store.sql.dialect;
    const runRow = async (runId: string) =>
      (await store.sql.query<{ status: string; epoch: number; activeTurnId: string | null; leaseOwner: string | null; watchdogNote: string | null }>(`SELECT "status", "epoch", "activeTurnId", "leaseOwner", "watchdogNote" FROM "Run" WHERE "id" = ?`, [runId]))[0];
    const messages = (runId: string) =>
      store.sql.query<{ kind: string; status: string; retryCount: number; epoch: number | null; payload: unknown }>(`SELECT "kind", "status", "retryCount", "epoch", "payload" FROM "InboxMessage" WHERE "runId" = ? ORDER BY "createdAt", "id"`, [runId]);
    const ledger = (runId: string) => store.sql.query<{ seq: number; type: string; callKey: string | null; epoch: number }>(`SELECT "seq", "type", "callKey", "epoch" FROM "LedgerEntry" WHERE "runId" = ? ORDER BY "seq"`, [runId]);
    /** Moves the run's lease `ms` from the database's now (negative: expired). */
    const leaseFromNow = (runId: string, ms: number) => store.sql.execute(`UPDATE "Run" SET "leaseExpiresAt" = ${d().later.sql} WHERE "id" = ?`, [d().later.param(ms), runId]);
    const msFromDatabaseNow = async (column: string, table: string, id: string) => {
      const [row] = await store.sql.query<{ value: unknown; now: unknown }>(`SELECT "${column}" AS "value", ${d().now} AS "now" FROM "${table}" WHERE "id" = ?`, [id]);
      const parse = (value: unknown) => (value instanceof Date ? value.getTime() : Date.parse(String(value)));
      return parse(row?.value) - parse(row?.now);
    };
    async function queuedRun(): Promise<string> {
      return (await store.enqueueRun({ workflowVersionId: harness.workflowVersionId, specification: "conformance" })).runId;
    }
    async function claimed(leaseMs = 60_000): Promise<ClaimedTurn> {
      const runId = await queuedRun();
      const turn = await store.claim("w-conformance", leaseMs, runId);
      if (!turn) throw new Error("the queued run was not claimable");
      return turn;
    }
    const expectLeaseLost = async (promise: Promise<unknown>) => expect(isLeaseLost(await promise.then(() => undefined, (error: unknown) => error))).toBe(true);

    it("queues a run with its start message, due at once", async () => {
      const runId = await queuedRun();
      expect(await runRow(runId)).toMatchObject({ status: "queued", epoch: 0, activeTurnId: null });
      expect(await messages(runId)).toMatchObject([{ kind: "start", status: "pending", retryCount: 0 }]);
    });

    it("a claim opens a turn with the next epoch and a lease by the database's clock; nobody else can claim the run meanwhile", async () => {
      const turn = await claimed(30_000);
      expect(turn).toMatchObject({ epoch: 1, kind: "start", workerId: "w-conformance", retryCount: 0 });
      expect(await runRow(turn.runId)).toMatchObject({ status: "dispatched", epoch: 1, activeTurnId: turn.turnId, leaseOwner: "w-conformance" });
      expect(await messages(turn.runId)).toMatchObject([{ status: "claimed", epoch: 1 }]);
      expect(Math.abs((await msFromDatabaseNow("leaseExpiresAt", "Run", turn.runId)) - 30_000)).toBeLessThan(5_000);
      expect(await store.claim("w-other", 30_000, turn.runId)).toBeNull();
    });

    it("a commit of the turn that holds the run writes its rows and its head", async () => {
      const turn = await claimed();
      await store.commit(turn, { ...emptyBatch, ledger: [{ seq: 1, actor: "engine", type: "run.started", payload: { specification: "x" }, callKey: "event:run.started" }], head: { status: "running", currentStep: "first" } });
      expect(await ledger(turn.runId)).toEqual([{ seq: 1, type: "run.started", callKey: "event:run.started", epoch: 1 }]);
      expect((await store.loadTurn(turn.runId)).keyed.get("event:run.started")).toEqual({ specification: "x" });
      expect(await runRow(turn.runId)).toMatchObject({ status: "running" });
    });

    it("refuses every write of a turn whose lease expired by the database's clock, and writes nothing", async () => {
      const turn = await claimed();
      await leaseFromNow(turn.runId, -1_000);
      await expectLeaseLost(store.commit(turn, { ...emptyBatch, ledger: [{ seq: 1, actor: "engine", type: "run.started", payload: {}, callKey: null }], head: { status: "running" } }));
      expect(await store.renewLease(turn, 60_000)).toBe(false);
      await expectLeaseLost(store.deferTurn(turn, "retry", 0));
      expect(await ledger(turn.runId)).toEqual([]);
      expect(await runRow(turn.runId)).toMatchObject({ status: "dispatched" });
    });

    it("refuses every write of a turn whose run was taken over (a stale epoch)", async () => {
      const turn = await claimed();
      expect(await store.requestCancel(turn.runId, "take it over")).toBe(true);
      const cancel = await store.claim("w-cancel", 60_000, turn.runId);
      expect(cancel).toMatchObject({ kind: "cancel", epoch: 2 });
      await expectLeaseLost(store.commit(turn, { ...emptyBatch, head: { status: "succeeded" }, end: { messageId: turn.messageId } }));
      expect(await store.renewLease(turn, 60_000)).toBe(false);
      await store.commit(cancel!, { ...emptyBatch, head: { status: "cancelled" }, end: { messageId: cancel!.messageId } });
      expect(await runRow(turn.runId)).toMatchObject({ status: "cancelled", epoch: 2, activeTurnId: null });
    });

    it("renews a held lease from the database's now", async () => {
      const turn = await claimed(5_000);
      expect(await store.renewLease(turn, 120_000)).toBe(true);
      expect(Math.abs((await msFromDatabaseNow("leaseExpiresAt", "Run", turn.runId)) - 120_000)).toBeLessThan(5_000);
    });

    it("the watchdog reclaims only expired leases, with a new epoch, and defers the claimed message counting the crash", async () => {
      const live = await claimed();
      const dead = await claimed();
      await leaseFromNow(dead.runId, -1_000);
      const reclaimed = await store.reclaimExpiredLeases(() => 0);
      expect(reclaimed.map((run) => run.runId)).toContain(dead.runId);
      expect(reclaimed.map((run) => run.runId)).not.toContain(live.runId);
      expect(await runRow(live.runId)).toMatchObject({ status: "dispatched", epoch: 1, leaseOwner: "w-conformance" });
      const after = await runRow(dead.runId);
      expect(after).toMatchObject({ status: "queued", epoch: 2, activeTurnId: null });
      expect(after?.watchdogNote).toMatch(/^\d{4}-\d\d-\d\dT.*Z: lease of w-conformance expired at epoch 1; reclaimed as epoch 2$/);
      const [message] = await messages(dead.runId);
      expect(message).toMatchObject({ status: "deferred", retryCount: 1 });
      expect(d().readJson(message?.payload)).toEqual({ crashes: 1 });
      expect(await store.claim("w-next", 60_000, dead.runId)).toMatchObject({ epoch: 3, retryCount: 1 });
    });

    it("a deferred turn is due again only after its delay, by the database's clock", async () => {
      const turn = await claimed();
      await store.deferTurn(turn, "the database went away", 60_000);
      expect(await runRow(turn.runId)).toMatchObject({ status: "queued", activeTurnId: null, leaseOwner: null });
      expect(await store.claim("w-next", 60_000, turn.runId)).toBeNull();
      await store.sql.execute(`UPDATE "InboxMessage" SET "nextRetryAt" = ${d().later.sql} WHERE "runId" = ?`, [d().later.param(-1), turn.runId]);
      expect(await store.claim("w-next", 60_000, turn.runId)).toMatchObject({ epoch: 2, retryCount: 1, deferReason: "the database went away" });
    });

    it("a turn that ends its run closes the run's later messages; a cancel of an ended run is refused, naming its status", async () => {
      const turn = await claimed();
      expect(await store.cancelRun(turn.runId, { reason: "too late", by: "ada@example.com" })).toEqual({ queued: true });
      await store.commit(turn, { ...emptyBatch, head: { status: "succeeded" }, end: { messageId: turn.messageId } });
      // Both written in the same millisecond at times: their order is not what is checked.
      expect((await messages(turn.runId)).map((message) => `${message.kind}:${message.status}`).sort()).toEqual(["cancel:done", "start:done"]);
      expect(await store.cancelRun(turn.runId, { reason: "again" })).toEqual({ queued: false, status: "succeeded" });
      expect(await store.cancelRun("no-such-run", { reason: "x" })).toEqual({ queued: false, status: null });
    });

    it("suspends with deadlines by the database's clock; exactly one resolution wins, recorded under the decision key", async () => {
      const turn = await claimed();
      const artifact = { id: `${turn.runId}-a`, stepName: "first", stepKind: "action_pair" as const, guardId: "g_a", attempt: 1, parentId: null, content: "{}", contentHash: "h", language: null, passed: false, fatal: true, feedback: "fatal", dependencyIds: {} };
      await store.commit(turn, {
        ...emptyBatch,
        artifacts: [artifact],
        escalations: [{ artifactId: artifact.id, stepName: "first", guardId: "g_a", feedback: "fatal", decisionKey: "first/attempt-1/decision" }],
        escalationExpiresAfterMs: 3_600_000,
        head: { status: "suspended", resumeDeadline: { afterMs: 3_600_000 } },
        end: { messageId: turn.messageId },
      });
      expect(Math.abs((await msFromDatabaseNow("resumeDeadline", "Run", turn.runId)) - 3_600_000)).toBeLessThan(5_000);
      const [escalation] = await store.sql.query<{ id: string }>(`SELECT "id" FROM "Escalation" WHERE "runId" = ?`, [turn.runId]);
      const escalationId = escalation!.id;
      expect(Math.abs((await msFromDatabaseNow("expiresAt", "Escalation", escalationId)) - 3_600_000)).toBeLessThan(5_000);
      expect(await store.isEscalationOverdue(escalationId)).toBe(false);
      expect(await store.overdueEscalations()).not.toContainEqual(expect.objectContaining({ escalationId }));

      const outcomes = await Promise.all([
        store.resolveEscalation({ escalationId, decision: { decision: "approve", decidedBy: "ada" }, refuseOverdue: true }),
        store.resolveEscalation({ escalationId, decision: { decision: "reject", decidedBy: "bob" }, refuseOverdue: true }),
      ]);
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(outcomes.find((outcome) => !outcome.ok)).toMatchObject({ ok: false, status: expect.stringMatching(/^(approved|rejected)$/) });
      expect((await ledger(turn.runId)).filter((row) => row.type === "escalation.decided")).toEqual([expect.objectContaining({ callKey: "event:first/attempt-1/decision" })]);
      expect((await messages(turn.runId)).map((message) => `${message.kind}:${message.status}`).sort()).toEqual(["resume:pending", "start:done"]);
    });

    it("refuses a person's decision past the deadline by the database's clock; the watchdog expires it", async () => {
      const turn = await claimed();
      const artifact = { id: `${turn.runId}-a`, stepName: "first", stepKind: "action_pair" as const, guardId: "g_a", attempt: 1, parentId: null, content: "{}", contentHash: "h", language: null, passed: false, fatal: true, feedback: "fatal", dependencyIds: {} };
      await store.commit(turn, {
        ...emptyBatch,
        artifacts: [artifact],
        escalations: [{ artifactId: artifact.id, stepName: "first", guardId: "g_a", feedback: "fatal", decisionKey: "first/attempt-1/decision" }],
        escalationExpiresAfterMs: -1_000,
        head: { status: "suspended", resumeDeadline: { afterMs: -1_000 } },
        end: { messageId: turn.messageId },
      });
      const [escalation] = await store.sql.query<{ id: string }>(`SELECT "id" FROM "Escalation" WHERE "runId" = ?`, [turn.runId]);
      const escalationId = escalation!.id;
      expect(await store.isEscalationOverdue(escalationId)).toBe(true);
      expect(await store.resolveEscalation({ escalationId, decision: { decision: "approve", decidedBy: "ada" }, refuseOverdue: true })).toEqual({ ok: false, status: "overdue" });
      expect(await store.overdueEscalations()).toContainEqual(expect.objectContaining({ escalationId, runId: turn.runId }));
      expect(await store.resolveEscalation({ escalationId, decision: { decision: "expired", decidedBy: "watchdog" } })).toEqual({ ok: true, runId: turn.runId });
      expect((await messages(turn.runId)).map((message) => message.kind).sort()).toEqual(["start", "timeout"]);
    });

    it("writes a live preview only for the turn that holds the run with a valid lease", async () => {
      const turn = await claimed();
      const preview = async () => (await store.sql.query<{ text: string }>(`SELECT "text" FROM "LiveCall" WHERE "runId" = ?`, [turn.runId]))[0]?.text;
      await store.liveCalls.write(turn.runId, turn.epoch, { stepName: "first", attempt: 1, text: "Hel" });
      expect(await preview()).toBe("Hel");
      await store.liveCalls.write(turn.runId, turn.epoch - 1, { stepName: "first", attempt: 1, text: "stale" });
      expect(await preview()).toBe("Hel");
      await store.liveCalls.clear(turn.runId, turn.epoch);
      await leaseFromNow(turn.runId, -1_000);
      await store.liveCalls.write(turn.runId, turn.epoch, { stepName: "first", attempt: 1, text: "after the lease" });
      expect(await preview()).toBeUndefined();

      const finished = await claimed();
      await store.commit(finished, { ...emptyBatch, head: { status: "succeeded" }, end: { messageId: finished.messageId } });
      await store.liveCalls.write(finished.runId, finished.epoch, { stepName: "first", attempt: 1, text: "late" });
      expect((await store.sql.query(`SELECT 1 AS "x" FROM "LiveCall" WHERE "runId" = ?`, [finished.runId])).length).toBe(0);
    });
  });
}
