import { randomUUID } from "node:crypto";
import type { SqlDialect, SqlExecutor } from "../../persistence/sql/sql-client";
import { escalationPolicyOf } from "../../review-policy/escalation-policy";
import { decidesByVote, tallyVotes, voteRefusal, type CastVote, type QuorumTally, type QuorumVote } from "../../review-policy/quorum";
import { statusAfter, type RecordedDecision } from "../decision";
import type { EscalationStatus } from "../lifecycle";

/** Bounds the votes read back: a pending escalation holds fewer than approvals + rejections needed (each at most 10). */
const MAX_VOTES_READ = 100;

export type VoteStep =
  /** The escalation's policy takes a single decision (or this vote completes the quorum): decide it now, in this transaction. */
  | { readonly decide: true; readonly tally: QuorumTally | null }
  /** Closed already, or past its deadline: nothing recorded. */
  | { readonly decide: false; readonly outcome: { readonly ok: false; readonly status: EscalationStatus; readonly decidedBy: string | null } | { readonly ok: false; readonly status: "overdue" } }
  /** Refused by the quorum's rules (voted before, started the run, an edit under several approvals): nothing recorded. */
  | { readonly decide: false; readonly outcome: { readonly ok: false; readonly status: "refused"; readonly reason: string } }
  /** Recorded as a vote; the escalation stays pending for the others. */
  | { readonly decide: false; readonly outcome: { readonly ok: false; readonly status: "voted"; readonly runId: string; readonly tally: QuorumTally } };

type LockedEscalation = {
  runId: string;
  status: EscalationStatus;
  decidedBy: string | null;
  policy: unknown;
  approvalCount: unknown;
  overdue: unknown;
  startedBy: string | null;
};

/**
 * A person's decision under the escalation's quorum policy, inside the decision's transaction
 * (resolve-escalation.ts). The escalation's row is locked first (FOR UPDATE on PostgreSQL; SQLite's
 * BEGIN IMMEDIATE already serialises writers), so concurrent voters queue on it and each sees the
 * votes before theirs. The vote is written as an EscalationApproval row (its key refuses a second
 * vote by one reviewer), an approval moves approvalCount by compare-and-swap, and an audit event
 * records the vote. When the vote completes the quorum the caller decides in the same transaction.
 */
export async function castQuorumVote(tx: SqlExecutor, d: SqlDialect, escalationId: string, decision: Exclude<RecordedDecision, { decision: "expired" }>, refuseOverdue: boolean, actor: { readonly id: string | null; readonly email: string } | undefined): Promise<VoteStep> {
  const [row] = await tx.query<LockedEscalation>(
    `SELECT e."runId", e."status", e."decidedBy", e."policy", e."approvalCount",
            CASE WHEN e."expiresAt" IS NOT NULL AND e."expiresAt" <= ${d.now} THEN 1 ELSE 0 END AS "overdue",
            (SELECT r."startedBy" FROM "Run" r WHERE r."id" = e."runId") AS "startedBy"
       FROM "Escalation" e WHERE e."id" = ?${d.provider === "postgres" ? " FOR UPDATE OF e" : ""}`,
    [escalationId],
  );
  if (!row) throw new Error(`Escalation ${escalationId} does not exist`);
  if (row.status !== "pending") return { decide: false, outcome: { ok: false, status: row.status, decidedBy: row.decidedBy } };
  if (refuseOverdue && Number(row.overdue) === 1) return { decide: false, outcome: { ok: false, status: "overdue" } };
  const { quorum } = escalationPolicyOf(d.readJson(row.policy));
  if (!decidesByVote(quorum)) return { decide: true, tally: null };

  const votes = await tx.query<{ reviewer: string; vote: string }>(`SELECT "reviewer", "vote" FROM "EscalationApproval" WHERE "escalationId" = ? ORDER BY "createdAt", "reviewer" LIMIT ${MAX_VOTES_READ}`, [escalationId]);
  const earlier: CastVote[] = votes.map((cast) => ({ reviewer: cast.reviewer, vote: cast.vote === "approve" ? "approve" : "reject" }));
  const vote: QuorumVote = statusAfter(decision.decision) === "approved" ? "approve" : "reject";
  const refusal = voteRefusal({ quorum, reviewer: decision.decidedBy, vote, editsArtifact: decision.decision === "edit_and_approve", runStartedBy: row.startedBy, votes: earlier });
  if (refusal) return { decide: false, outcome: { ok: false, status: "refused", reason: refusal } };

  const comment = decision.comment ?? null;
  await tx.execute(`INSERT INTO "EscalationApproval" ("escalationId", "reviewer", "vote", "comment", "contentHash", "createdAt") VALUES (?, ?, ?, ?, ?, ${d.now})`, [
    escalationId,
    decision.decidedBy,
    vote,
    comment,
    decision.contentHash ?? "",
  ]);
  if (vote === "approve") {
    // Belt and braces over the row lock: the count moves from what this transaction read, or not at all.
    const counted = await tx.execute(`UPDATE "Escalation" SET "approvalCount" = "approvalCount" + 1 WHERE "id" = ? AND "status" = 'pending' AND "approvalCount" = ?`, [escalationId, Number(row.approvalCount)]);
    if (counted !== 1) throw new Error(`Escalation ${escalationId}: its approval count changed under a locked row`);
  }
  const tally = tallyVotes(quorum, [...earlier, { reviewer: decision.decidedBy, vote }]);
  if (actor) {
    const detail = { runId: row.runId, vote, decision: decision.decision, contentHash: decision.contentHash ?? null, comment, approvedBy: tally.approvedBy, rejectedBy: tally.rejectedBy, approvalsNeeded: tally.approvalsNeeded, rejectionsNeeded: tally.rejectionsNeeded };
    await tx.execute(`INSERT INTO "AuditEvent" ("id", "at", "actorId", "actorEmail", "action", "target", "detail") VALUES (?, ${d.now}, ?, ?, 'escalation.voted', ?, ?)`, [
      randomUUID(),
      actor.id,
      actor.email,
      `escalation:${escalationId}`,
      d.json(detail),
    ]);
  }
  if (tally.outcome === "pending") return { decide: false, outcome: { ok: false, status: "voted", runId: row.runId, tally } };
  return { decide: true, tally };
}
