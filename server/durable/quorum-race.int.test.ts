import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuorumPolicy } from "../review-policy/escalation-policy";
import { createTestDatabase, type TestDatabase, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { cheapWorkflow } from "../worker/testing/cheap-workflow";
import { DurableStore } from "./durable-store";
import type { ResolutionOutcome } from "./store/resolve-escalation";
import { spawnVoter, type SpawnedVoter } from "./testing/spawn-voter";

const ROUNDS = 200;
/** Fisher-Yates: a uniformly random order. */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const TWO_APPROVALS: QuorumPolicy = { approvals: 2, excludeRunStarter: true, rejections: 1 };

describe.each(TEST_PROVIDERS)("quorum votes racing for one escalation (%s)", (provider) => {
  let database: TestDatabase;
  // The racing voters are processes of their own, each with its own connection, so their votes
  // really are concurrent transactions on both databases (better-sqlite3 is synchronous: in one
  // process, SQLite transactions never interleave). The sequential cases use stores in this process.
  let racers: SpawnedVoter[];
  let voters: DurableStore[];
  let versionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    voters = [0, 1, 2].map(() => new DurableStore(openSqlClient(database.url)));
    racers = await Promise.all([0, 1, 2].map(() => spawnVoter(database.url)));
    versionId = (await saveWorkflowDefinition(database.db, cheapWorkflow())).versionId;
  });
  afterAll(async () => {
    for (const voter of voters) await voter.close();
    await Promise.all((racers ?? []).map((racer) => racer.close()));
    await database.dispose();
  });

  /** A run started by sam, suspended on an escalation routed to a quorum policy. */
  async function suspendedRun(quorum: QuorumPolicy): Promise<{ runId: string; escalationId: string }> {
    const runId = randomUUID();
    const artifactId = randomUUID();
    const escalationId = randomUUID();
    const later = new Date(Date.now() + 3_600_000);
    await database.db.run.create({ data: { id: runId, workflowVersionId: versionId, specification: "quorum", status: "suspended", epoch: 1, workflowState: {}, resumeDeadline: later, startedBy: "sam@example.test" } });
    await database.db.artifact.create({ data: { id: artifactId, runId, stepName: "first", guardId: "g_a", attempt: 1, content: "{}", contentHash: "h", passed: false, fatal: true, feedback: "fatal" } });
    await database.db.escalation.create({
      data: { id: escalationId, runId, artifactId, stepName: "first", guardId: "g_a", feedback: "fatal", decisionKey: "first/attempt-1/decision", expiresAt: later, routedAt: new Date(), policy: { quorum: { ...quorum } } },
    });
    return { runId, escalationId };
  }

  const vote = (store: DurableStore, escalationId: string, decision: "approve" | "reject", decidedBy: string) =>
    store.resolveEscalation({ escalationId, decision: { decision, decidedBy, contentHash: "h" }, decidedHash: "h", auditActor: { id: null, email: decidedBy }, refuseOverdue: true, asQuorumVote: true });

  it(`two approvals and a rejection at once, ${ROUNDS} times: one outcome, counts consistent, one resume message`, async () => {
    const tally = { approved: 0, rejected: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const { runId, escalationId } = await suspendedRun(TWO_APPROVALS);
      // The three are sent at once, in a random order each round, so they arrive in every order.
      const ballots = [
        { racer: 0, decision: "approve", reviewer: "ada@example.test" },
        { racer: 1, decision: "approve", reviewer: "bob@example.test" },
        { racer: 2, decision: "reject", reviewer: "cy@example.test" },
      ] as const;
      const sent = new Map<string, Promise<ResolutionOutcome>>();
      for (const ballot of shuffled(ballots)) sent.set(ballot.reviewer, racers[ballot.racer]!.vote(escalationId, ballot.decision, ballot.reviewer));
      const [ada, bob, cy] = (await Promise.all(ballots.map((ballot) => sent.get(ballot.reviewer)!))) as [ResolutionOutcome, ResolutionOutcome, ResolutionOutcome];
      const outcomes: ResolutionOutcome[] = [ada, bob, cy];

      const escalation = await database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } });
      const votes = await database.db.escalationApproval.findMany({ where: { escalationId } });
      const decided = await database.db.ledgerEntry.findMany({ where: { runId, type: "escalation.decided" } });
      const inbox = await database.db.inboxMessage.findMany({ where: { runId } });
      const audit = await database.db.auditEvent.findMany({ where: { target: `escalation:${escalationId}` } });
      const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });

      // Exactly one call decided; one ledger decision and one resume message.
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(decided).toHaveLength(1);
      expect(inbox.map((message) => message.kind)).toEqual(["resume"]);
      expect(run.resumeDeadline).toBeNull();
      // The counter is the approval rows, whatever order the votes took.
      const approvals = votes.filter((row) => row.vote === "approve");
      expect(escalation.approvalCount).toBe(approvals.length);
      // Every recorded vote is audited once, and the decision once.
      expect(audit.filter((event) => event.action === "escalation.voted")).toHaveLength(votes.length);
      expect(audit.filter((event) => event.action === "escalation.decided")).toHaveLength(1);

      if (escalation.status === "approved") {
        tally.approved++;
        expect(approvals.map((row) => row.reviewer).sort()).toEqual(["ada@example.test", "bob@example.test"]);
        expect(votes).toHaveLength(2);
        expect(cy).toEqual({ ok: false, status: "approved", decidedBy: escalation.decidedBy });
        expect(decided[0]?.payload).toMatchObject({ decision: "approve", decidedBy: escalation.decidedBy });
        const deciding = escalation.decidedBy === "ada@example.test" ? ada : bob;
        const first = escalation.decidedBy === "ada@example.test" ? bob : ada;
        expect(deciding).toMatchObject({ ok: true, runId, tally: { outcome: "approved" } });
        expect(first).toMatchObject({ ok: false, status: "voted", tally: { outcome: "pending", approvedBy: [first === ada ? "ada@example.test" : "bob@example.test"] } });
      } else {
        tally.rejected++;
        expect(escalation.status).toBe("rejected");
        expect(escalation.decidedBy).toBe("cy@example.test");
        expect(cy).toMatchObject({ ok: true, runId, tally: { outcome: "rejected", rejectedBy: ["cy@example.test"] } });
        expect(decided[0]?.payload).toMatchObject({ decision: "reject", decidedBy: "cy@example.test" });
        // At most one approval came before the rejection; any that came after was told it was rejected.
        expect(approvals.length).toBeLessThanOrEqual(1);
        for (const [outcome, reviewer] of [[ada, "ada@example.test"], [bob, "bob@example.test"]] as const) {
          if (approvals.some((row) => row.reviewer === reviewer)) expect(outcome).toMatchObject({ ok: false, status: "voted" });
          else expect(outcome).toEqual({ ok: false, status: "rejected", decidedBy: "cy@example.test" });
        }
      }
    }
    expect(tally.approved + tally.rejected).toBe(ROUNDS);
    // Both outcomes happen: the votes really raced (a serial order would always give the same one).
    expect(tally.approved).toBeGreaterThan(0);
    expect(tally.rejected).toBeGreaterThan(0);
  }, 180_000);

  it("one reviewer voting twice at once is counted once", async () => {
    const { escalationId } = await suspendedRun(TWO_APPROVALS);
    const outcomes = await Promise.all([0, 1].map((racer) => racers[racer]!.vote(escalationId, "approve", "ada@example.test")));
    expect(outcomes.map((outcome) => (outcome.ok ? "decided" : outcome.status)).sort()).toEqual(["refused", "voted"]);
    expect(outcomes.find((outcome) => !outcome.ok && outcome.status === "refused")).toMatchObject({ reason: "you already voted (approved); each reviewer votes once" });
    const escalation = await database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } });
    expect(escalation).toMatchObject({ status: "pending", approvalCount: 1 });
  });

  it("refuses the run's starter an approval, records nothing, and lets the others decide", async () => {
    const { runId, escalationId } = await suspendedRun(TWO_APPROVALS);
    expect(await vote(voters[0]!, escalationId, "approve", "SAM@example.test")).toEqual({ ok: false, status: "refused", reason: "you started this run, and its review policy needs the approval of someone else" });
    expect(await database.db.escalationApproval.count({ where: { escalationId } })).toBe(0);
    expect(await vote(voters[1]!, escalationId, "approve", "ada@example.test")).toMatchObject({ ok: false, status: "voted" });
    expect(await vote(voters[2]!, escalationId, "approve", "bob@example.test")).toMatchObject({ ok: true, runId, tally: { approvedBy: ["ada@example.test", "bob@example.test"] } });
    const decidedAudit = await database.db.auditEvent.findFirstOrThrow({ where: { target: `escalation:${escalationId}`, action: "escalation.decided" } });
    expect(decidedAudit.detail).toMatchObject({ decision: "approve", approvedBy: ["ada@example.test", "bob@example.test"], rejectedBy: [] });
  });

  it("waits for the policy's number of rejections", async () => {
    const { runId, escalationId } = await suspendedRun({ approvals: 3, excludeRunStarter: false, rejections: 2 });
    expect(await vote(voters[0]!, escalationId, "reject", "ada@example.test")).toMatchObject({ ok: false, status: "voted", tally: { rejectedBy: ["ada@example.test"] } });
    expect(await vote(voters[1]!, escalationId, "approve", "bob@example.test")).toMatchObject({ ok: false, status: "voted" });
    expect(await vote(voters[2]!, escalationId, "reject", "cy@example.test")).toMatchObject({ ok: true, runId, tally: { outcome: "rejected" } });
    expect(await database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).toMatchObject({ status: "rejected", decidedBy: "cy@example.test", approvalCount: 1 });
  });

  it("an escalation without a quorum policy is decided by one decision, with no vote rows", async () => {
    const { runId, escalationId } = await suspendedRun({ approvals: 1, excludeRunStarter: false, rejections: 1 });
    expect(await vote(voters[0]!, escalationId, "approve", "sam@example.test")).toEqual({ ok: true, runId });
    expect(await database.db.escalationApproval.count({ where: { escalationId } })).toBe(0);
  });

  it("refuses a vote past the deadline by the database's clock, recording nothing", async () => {
    const { escalationId } = await suspendedRun(TWO_APPROVALS);
    await database.db.escalation.update({ where: { id: escalationId }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    expect(await vote(voters[0]!, escalationId, "approve", "ada@example.test")).toEqual({ ok: false, status: "overdue" });
    expect(await database.db.escalationApproval.count({ where: { escalationId } })).toBe(0);
  });
});
