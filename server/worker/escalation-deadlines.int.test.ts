import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceEscalationClock } from "../durable/testing/escalation-clock";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "../persistence/testing/test-database";
import { HANDOFF_AUDIT_ACTIONS } from "../review-policy/hand-off";
import { formatReview } from "../cli/commands/escalations/format";
import { getEscalation } from "../services/escalations/get-escalation";
import { listEscalations } from "../services/escalations/list-escalations";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { cheapWorkflow } from "./testing/cheap-workflow";
import { sweep } from "./watchdog";

const HOUR = 3_600_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A routed policy as the routing pass stores it (server/review-policy/escalation-policy.ts). */
function policy(overrides: { backup?: unknown; deadline?: unknown; group?: string | null } = {}) {
  return {
    group: overrides.group === undefined ? "security" : overrides.group,
    quorum: { approvals: 1, excludeRunStarter: false, rejections: 1 },
    deadline: overrides.deadline ?? { hours: 8, action: "fail", handoffGroup: null, handoffHours: null },
    backup: overrides.backup ?? null,
    channels: ["email"],
    rule: "test rule",
  };
}

describe.each(TEST_PROVIDERS)("backup hand-off and deadline policies under a simulated clock (%s)", (provider) => {
  let database: TestDatabase;
  /** Several stores on connections of their own: the sweeps of several workers. */
  const stores: DurableStore[] = [];
  let versionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    for (let i = 0; i < 4; i++) stores.push(new DurableStore(openSqlClient(database.url)));
    versionId = (await saveWorkflowDefinition(database.db, cheapWorkflow())).versionId;
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await database.dispose();
  });
  const store = () => stores[0]!;

  /** A run suspended on a routed escalation raised now, its deadline `deadlineHours` away. */
  async function escalated(storedPolicy: unknown, options: { deadlineHours?: number; claimedBy?: string } = {}) {
    const runId = randomUUID();
    const artifactId = randomUUID();
    const escalationId = randomUUID();
    const deadline = new Date(Date.now() + (options.deadlineHours ?? 8) * HOUR);
    const group = (storedPolicy as { group?: string | null } | null)?.group ?? null;
    await database.db.run.create({ data: { id: runId, workflowVersionId: versionId, specification: "deadlines", status: "suspended", epoch: 1, workflowState: {}, resumeDeadline: deadline } });
    await database.db.artifact.create({ data: { id: artifactId, runId, stepName: "first", guardId: "g_a", attempt: 1, content: "{}", contentHash: "h", passed: false, fatal: true, feedback: "fatal" } });
    await database.db.escalation.create({
      data: {
        id: escalationId, runId, artifactId, stepName: "first", guardId: "g_a", feedback: "fatal", decisionKey: "first/attempt-1/decision", expiresAt: deadline,
        ...(storedPolicy === undefined ? {} : { policy: storedPolicy as object, routedAt: new Date(), routingVersion: 1, reviewGroup: group }),
        ...(options.claimedBy ? { claimedBy: options.claimedBy, claimedAt: new Date() } : {}),
      },
    });
    return { runId, escalationId };
  }
  const escalationOf = (id: string) => database.db.escalation.findUniqueOrThrow({ where: { id } });
  const runOf = (id: string) => database.db.run.findUniqueOrThrow({ where: { id } });
  const handOffEvents = (id: string) => database.db.auditEvent.findMany({ where: { target: `escalation:${id}`, action: { in: Object.values(HANDOFF_AUDIT_ACTIONS) } }, orderBy: { at: "asc" } });
  const near = (date: Date | null, expected: number) => expect(Math.abs((date?.getTime() ?? 0) - expected)).toBeLessThan(60_000);

  describe("backup", () => {
    it("offers an unclaimed escalation to the backup group once its time is up, once", async () => {
      const { escalationId } = await escalated(policy({ backup: { group: "oncall", afterHours: 2 } }));
      await advanceEscalationClock(database.db, escalationId, 1.9);
      await sweep(store());
      expect(await escalationOf(escalationId)).toMatchObject({ reviewGroup: "security", handedOffAt: null });

      await advanceEscalationClock(database.db, escalationId, 0.2);
      const report = await sweep(store());
      expect(report.handedOff).toContainEqual(expect.objectContaining({ escalationId, reason: "backup", from: "security", to: "oncall" }));
      const handed = await escalationOf(escalationId);
      expect(handed).toMatchObject({ status: "pending", reviewGroup: "oncall" });
      near(handed.handedOffAt, Date.now());
      const events = await handOffEvents(escalationId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ action: HANDOFF_AUDIT_ACTIONS.backup, actorEmail: "backup policy", actorId: null, detail: expect.objectContaining({ from: "security", to: "oncall", afterHours: 2 }) });

      // Hours later, more sweeps: nothing more (a hand-off is one), the deadline untouched.
      await advanceEscalationClock(database.db, escalationId, 3);
      await sweep(store());
      expect(await handOffEvents(escalationId)).toHaveLength(1);
      expect((await escalationOf(escalationId)).reviewGroup).toBe("oncall");
    });

    it("leaves alone what someone claimed, a policy without a backup, no policy, a malformed one, and what is already past its deadline", async () => {
      const claimed = await escalated(policy({ backup: { group: "oncall", afterHours: 1 } }), { claimedBy: "ada@example.test" });
      const noBackup = await escalated(policy());
      const unrouted = await escalated(undefined);
      const malformed = await escalated({ ...policy(), backup: { group: "oncall", afterHours: "two" } });
      const notJsonObject = await escalated("backup after two hours");
      const overdue = await escalated(policy({ backup: { group: "oncall", afterHours: 1 } }), { deadlineHours: 2 });
      for (const { escalationId } of [claimed, noBackup, unrouted, malformed, notJsonObject, overdue]) await advanceEscalationClock(database.db, escalationId, 5);
      // The overdue one's run stays suspended but is not handed to the backup; the deadline (fail) takes it.
      await sweep(store());
      for (const { escalationId } of [claimed, noBackup, unrouted, malformed, notJsonObject]) {
        expect(await escalationOf(escalationId)).toMatchObject({ status: "pending", handedOffAt: null });
        expect(await handOffEvents(escalationId)).toEqual([]);
      }
      expect(await escalationOf(overdue.escalationId)).toMatchObject({ status: "expired", handedOffAt: null, reviewGroup: "security" });
    });

    it("several workers sweeping at once hand each escalation off exactly once", async () => {
      for (let round = 0; round < 10; round++) {
        const due = await Promise.all(Array.from({ length: 5 }, () => escalated(policy({ backup: { group: "oncall", afterHours: 0.5 } }))));
        for (const { escalationId } of due) await advanceEscalationClock(database.db, escalationId, 1);
        const reports = await Promise.all(stores.map((racer) => pause(Math.random() * 3).then(() => sweep(racer))));
        const reported = reports.flatMap((report) => report.handedOff.filter((handOff) => due.some(({ escalationId }) => escalationId === handOff.escalationId)));
        expect(reported.map((handOff) => handOff.escalationId).sort()).toEqual(due.map(({ escalationId }) => escalationId).sort());
        for (const { escalationId } of due) {
          expect(await handOffEvents(escalationId)).toHaveLength(1);
          expect((await escalationOf(escalationId)).reviewGroup).toBe("oncall");
        }
      }
    }, 120_000);
  });

  describe("at the deadline", () => {
    it("fail (the default, and no policy at all): the escalation expires and the run is told to time out", async () => {
      for (const stored of [policy(), undefined]) {
        const { runId, escalationId } = await escalated(stored);
        await advanceEscalationClock(database.db, escalationId, 7.9);
        await sweep(store());
        expect((await escalationOf(escalationId)).status).toBe("pending");
        await advanceEscalationClock(database.db, escalationId, 0.2);
        const report = await sweep(store());
        expect(report.expired).toContain(runId);
        expect(await escalationOf(escalationId)).toMatchObject({ status: "expired", decidedBy: "watchdog", decision: "expired" });
        expect((await database.db.inboxMessage.findMany({ where: { runId } })).map((message) => message.kind)).toEqual(["timeout"]);
      }
    });

    it("reject: decided as a rejection by the deadline policy, audited, and the run resumes as after a rejection", async () => {
      const { runId, escalationId } = await escalated(policy({ deadline: { hours: 8, action: "reject", handoffGroup: null, handoffHours: null } }));
      await advanceEscalationClock(database.db, escalationId, 8.1);
      const report = await sweep(store());
      expect(report.rejected).toEqual([runId]);
      expect(report.expired).not.toContain(runId);
      expect(await escalationOf(escalationId)).toMatchObject({ status: "rejected", decision: "reject", decidedBy: "deadline policy", comment: "nobody decided before the deadline" });
      const [decided] = await database.db.ledgerEntry.findMany({ where: { runId, type: "escalation.decided" } });
      expect(decided).toMatchObject({ actor: "watchdog", callKey: "event:first/attempt-1/decision", payload: expect.objectContaining({ decision: "reject", decidedBy: "deadline policy" }) });
      expect((await database.db.inboxMessage.findMany({ where: { runId } })).map((message) => message.kind)).toEqual(["resume"]);
      expect(await database.db.auditEvent.findMany({ where: { target: `escalation:${escalationId}` } })).toEqual([expect.objectContaining({ action: "escalation.decided", actorEmail: "deadline policy" })]);
      expect((await runOf(runId)).watchdogNote).toMatch(/rejected by its deadline policy/);
    });

    it("handoff: another group gets it with a new deadline by the database's clock, once; at the next deadline the run fails", async () => {
      const { runId, escalationId } = await escalated(policy({ deadline: { hours: 8, action: "handoff", handoffGroup: "leads", handoffHours: 4 } }));
      await advanceEscalationClock(database.db, escalationId, 8.1);
      const report = await sweep(store());
      expect(report.handedOff).toEqual([expect.objectContaining({ escalationId, reason: "deadline", from: "security", to: "leads" })]);
      const handed = await escalationOf(escalationId);
      expect(handed).toMatchObject({ status: "pending", reviewGroup: "leads" });
      near(handed.expiresAt, Date.now() + 4 * HOUR);
      near(handed.handedOffAt, Date.now());
      const run = await runOf(runId);
      expect(run.status).toBe("suspended");
      expect(run.resumeDeadline?.getTime()).toBe(handed.expiresAt?.getTime());
      expect(run.watchdogNote).toMatch(/handed to leads for 4 h/);
      expect(await database.db.inboxMessage.findMany({ where: { runId } })).toEqual([]);
      expect(await handOffEvents(escalationId)).toEqual([expect.objectContaining({ action: HANDOFF_AUDIT_ACTIONS.deadline, actorEmail: "deadline policy", detail: expect.objectContaining({ from: "security", to: "leads", hours: 4 }) })]);

      // Within the hand-off's hours: nothing happens.
      await advanceEscalationClock(database.db, escalationId, 3.9);
      await sweep(store());
      expect((await escalationOf(escalationId)).status).toBe("pending");
      // Past them: the hand-off happened already, so the run fails.
      await advanceEscalationClock(database.db, escalationId, 0.2);
      expect((await sweep(store())).expired).toContain(runId);
      expect(await escalationOf(escalationId)).toMatchObject({ status: "expired", reviewGroup: "leads" });
      expect(await handOffEvents(escalationId)).toHaveLength(1);
    });

    it("a hand-off that names no group or hours fails the run; no deadline policy ever approves", async () => {
      const { escalationId } = await escalated(policy({ deadline: { hours: 8, action: "handoff", handoffGroup: null, handoffHours: 4 } }));
      const approve = await escalated(policy({ deadline: { hours: 8, action: "approve", handoffGroup: null, handoffHours: null } }));
      for (const id of [escalationId, approve.escalationId]) await advanceEscalationClock(database.db, id, 9);
      await sweep(store());
      expect((await escalationOf(escalationId)).status).toBe("expired");
      expect((await escalationOf(approve.escalationId)).status).toBe("expired");
    });

    it("after a backup hand-off, the deadline still hands off, from the backup group", async () => {
      const { escalationId } = await escalated(policy({ backup: { group: "oncall", afterHours: 2 }, deadline: { hours: 8, action: "handoff", handoffGroup: "leads", handoffHours: 4 } }));
      await advanceEscalationClock(database.db, escalationId, 3);
      await sweep(store());
      expect((await escalationOf(escalationId)).reviewGroup).toBe("oncall");
      await advanceEscalationClock(database.db, escalationId, 5.1);
      await sweep(store());
      expect(await escalationOf(escalationId)).toMatchObject({ status: "pending", reviewGroup: "leads" });
      expect((await handOffEvents(escalationId)).map((event) => [event.action, (event.detail as { from: string }).from])).toEqual([
        [HANDOFF_AUDIT_ACTIONS.backup, "security"],
        [HANDOFF_AUDIT_ACTIONS.deadline, "oncall"],
      ]);
    });

    it("the review page and the queue say who it is offered to, from whom since when, and what the deadline does", async () => {
      const { escalationId } = await escalated(policy({ backup: { group: "oncall", afterHours: 2 }, deadline: { hours: 8, action: "handoff", handoffGroup: "leads", handoffHours: 4 } }));
      const reachNow = async () => {
        const review = await getEscalation(database.db, null, { id: escalationId });
        const listed = (await listEscalations(database.db, { status: "all", pageSize: 500 })).items.find((item) => item.id === escalationId);
        expect(listed?.reach).toEqual(review.escalation.reach);
        return review.escalation.reach;
      };
      expect(await reachNow()).toEqual({ group: "security", handOff: null, deadline: "At the deadline: handed to leads for 4 h; at the deadline after that the run fails.", deadlineStep: "handoff" });

      await advanceEscalationClock(database.db, escalationId, 2.5);
      await sweep(store());
      const backup = await reachNow();
      expect(backup.group).toBe("oncall");
      // The CLI's `escalations show` says it too.
      const shown = formatReview(await getEscalation(database.db, null, { id: escalationId })).split("\n");
      expect(shown).toContainEqual(expect.stringMatching(/^ {2}offered {4}Offered to oncall \(handed off from security at /));
      expect(shown).toContain("  then       At the deadline: handed to leads for 4 h; at the deadline after that the run fails.");
      expect(backup.handOff).toMatch(/^Offered to oncall \(handed off from security at \d{4}-\d\d-\d\d \d\d:\d\d UTC: nobody claimed it in time\)\.$/);

      await advanceEscalationClock(database.db, escalationId, 6);
      await sweep(store());
      const handed = await reachNow();
      expect(handed).toMatchObject({ group: "leads", deadline: "At the deadline: the run fails (it was already handed to leads at a deadline).", deadlineStep: "fail" });
      expect(handed.handOff).toMatch(/^Offered to leads \(handed off from oncall at .* UTC: its deadline passed\)\.$/);

      await advanceEscalationClock(database.db, escalationId, 5);
      await sweep(store());
      expect(await reachNow()).toMatchObject({ group: "leads", deadline: null, deadlineStep: null });
    });

    it("several workers sweeping at once: one hand-off per deadline, then exactly one expiry", async () => {
      const rounds = 25;
      for (let round = 0; round < rounds; round++) {
        const { runId, escalationId } = await escalated(policy({ deadline: { hours: 1, action: "handoff", handoffGroup: "leads", handoffHours: 1 } }), { deadlineHours: 1 });
        await advanceEscalationClock(database.db, escalationId, 1.1);
        await Promise.all(stores.map((racer) => pause(Math.random() * 3).then(() => sweep(racer))));
        expect(await handOffEvents(escalationId)).toHaveLength(1);
        const handed = await escalationOf(escalationId);
        expect(handed).toMatchObject({ status: "pending", reviewGroup: "leads" });
        near(handed.expiresAt, Date.now() + HOUR);

        await advanceEscalationClock(database.db, escalationId, 1.1);
        await Promise.all(stores.map((racer) => pause(Math.random() * 3).then(() => sweep(racer))));
        expect((await escalationOf(escalationId)).status).toBe("expired");
        expect(await handOffEvents(escalationId)).toHaveLength(1);
        expect(await database.db.ledgerEntry.count({ where: { runId, type: "escalation.decided" } })).toBe(1);
        expect((await database.db.inboxMessage.findMany({ where: { runId } })).map((message) => message.kind)).toEqual(["timeout"]);
      }
    }, 120_000);

    it("a reject policy raced by several workers and a person: exactly one decision", async () => {
      for (let round = 0; round < 25; round++) {
        const { runId, escalationId } = await escalated(policy({ deadline: { hours: 1, action: "reject", handoffGroup: null, handoffHours: null } }), { deadlineHours: 1 });
        await advanceEscalationClock(database.db, escalationId, 1.1);
        const person = pause(Math.random() * 3).then(() => stores[1]!.resolveEscalation({ escalationId, decision: { decision: "approve", decidedBy: "ada@example.test" }, refuseOverdue: true }));
        await Promise.all([person, ...stores.map((racer) => pause(Math.random() * 3).then(() => sweep(racer)))]);
        // The person is past the deadline: refused. The deadline rejects, once.
        const refused = await person;
        expect(refused.ok).toBe(false);
        expect([{ ok: false, status: "overdue" }, { ok: false, status: "rejected", decidedBy: "deadline policy" }]).toContainEqual(refused);
        expect(await escalationOf(escalationId)).toMatchObject({ status: "rejected", decidedBy: "deadline policy" });
        expect(await database.db.ledgerEntry.count({ where: { runId, type: "escalation.decided" } })).toBe(1);
        expect(await database.db.inboxMessage.count({ where: { runId } })).toBe(1);
      }
    }, 120_000);
  });
});
