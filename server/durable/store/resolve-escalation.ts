import { randomUUID } from "node:crypto";
import type { SqlClient, SqlDialect, SqlExecutor } from "../../persistence/sql/sql-client";
import { decisionCallKey, statusAfter, type RecordedDecision } from "../decision";
import type { EscalationStatus } from "../lifecycle";
import { insertLedger } from "./insert-ledger";
import { insertMessage } from "./insert-message";
import { DEADLINE_POLICY_ACTOR } from "../../review-policy/hand-off";
import type { QuorumTally } from "../../review-policy/quorum";
import { castQuorumVote } from "./cast-quorum-vote";

export interface EscalationResolution {
  readonly escalationId: string;
  /** What the resumed run reads back under the escalation's decision key. */
  readonly decision: RecordedDecision;
  /** The content hash of the artifact the decision was made on, kept on the escalation row. */
  readonly decidedHash?: string;
  /** The watchdog's note on the run. */
  readonly note?: string;
  /** Who decided, for the audit log: written in the decision's transaction (absent for the watchdog). */
  readonly auditActor?: { readonly id: string | null; readonly email: string };
  /** A person's decision: refused when the escalation's deadline has passed by the database's clock. */
  readonly refuseOverdue?: boolean;
  /** A budget escalation's grant: the run's budget with the grant added, written with the decision. */
  readonly raisedBudget?: unknown;
  /** Line comments submitted with a person's decision: ReviewComment rows, written only if the decision (or the vote) counts. */
  readonly reviewComments?: readonly ReviewCommentInput[];
  /**
   * A person's decision, counted as their vote when the escalation's policy needs a quorum
   * (cast-quorum-vote.ts): it decides only when it completes the quorum. Absent for the watchdog
   * and budget grants, which decide outright.
   */
  readonly asQuorumVote?: boolean;
}

/** A line comment as the decision's transaction stores it (server/review-comments/line-comment.ts, validated before). */
export interface ReviewCommentInput {
  readonly line: number;
  readonly endLine?: number;
  readonly body: string;
  readonly suggestion?: string;
}

export type ResolutionOutcome =
  /** Decided by this call; `tally` when a quorum's last vote decided it. */
  | { readonly ok: true; readonly runId: string; readonly tally?: QuorumTally }
  /** Someone (a decision, the watchdog, a cancel) closed the escalation first. */
  | { readonly ok: false; readonly status: EscalationStatus; readonly decidedBy: string | null }
  /** Still pending, but past its deadline: the watchdog will expire it. */
  | { readonly ok: false; readonly status: "overdue" }
  /** Under a quorum: the vote was recorded and the escalation waits for more (not decided by this call). */
  | { readonly ok: false; readonly status: "voted"; readonly runId: string; readonly tally: QuorumTally }
  /** Under a quorum: the vote was refused (the reviewer voted before, started the run, ...); nothing recorded. */
  | { readonly ok: false; readonly status: "refused"; readonly reason: string };

/**
 * Decides a pending escalation and queues the message that resumes its run, in one transaction:
 * the escalation's status, the decision in the ledger under its decision key, a `resume` (or, for
 * the watchdog's expiry, `timeout`) message, the run's deadline cleared, and the audit event.
 * Exactly one of several concurrent resolutions wins: the status moves from pending once; the
 * others learn who won.
 */
export async function resolveEscalation(sql: SqlClient, resolution: EscalationResolution): Promise<ResolutionOutcome> {
  const d = sql.dialect;
  const { decision } = resolution;
  const status = statusAfter(decision.decision);
  const comment = "comment" in decision && decision.comment ? decision.comment : null;
  return sql.transaction(async (tx): Promise<ResolutionOutcome> => {
    let tally: QuorumTally | null = null;
    if (resolution.asQuorumVote && decision.decision !== "expired") {
      const step = await castQuorumVote(tx, d, resolution.escalationId, decision, resolution.refuseOverdue ?? false, resolution.auditActor);
      if (!step.decide) {
        // A vote that stands without deciding keeps its line comments, as a deciding one does.
        if (step.outcome.status === "voted") await insertReviewComments(tx, d, resolution);
        return step.outcome;
      }
      // The vote step checked the deadline with the row locked; checking again a moment later could refuse a decision whose vote is already written.
      tally = step.tally;
    }
    const changed = await tx.execute(
      `UPDATE "Escalation" SET "status" = ?, "decidedBy" = ?, "decidedAt" = ${d.now}, "comment" = ?, "decision" = ?, "decidedHash" = ?
       WHERE "id" = ? AND "status" = 'pending'${resolution.refuseOverdue && !tally ? ` AND ("expiresAt" IS NULL OR "expiresAt" > ${d.now})` : ""}`,
      [status, decision.decidedBy, comment, decision.decision, resolution.decidedHash ?? null, resolution.escalationId],
    );
    const [escalation] = await tx.query<{ runId: string; status: EscalationStatus; decidedBy: string | null; decisionKey: string | null }>(
      `SELECT "runId", "status", "decidedBy", "decisionKey" FROM "Escalation" WHERE "id" = ?`,
      [resolution.escalationId],
    );
    if (!escalation) throw new Error(`Escalation ${resolution.escalationId} does not exist`);
    if (changed !== 1) {
      if (escalation.status === "pending") return { ok: false, status: "overdue" };
      return { ok: false, status: escalation.status, decidedBy: escalation.decidedBy };
    }
    const [last] = await tx.query<{ seq: number | null; epoch: number | null }>(`SELECT (SELECT MAX("seq") FROM "LedgerEntry" WHERE "runId" = ?) AS "seq", (SELECT "epoch" FROM "Run" WHERE "id" = ?) AS "epoch"`, [
      escalation.runId,
      escalation.runId,
    ]);
    await insertLedger(tx, d, escalation.runId, Number(last?.epoch ?? 0), [
      {
        seq: Number(last?.seq ?? 0) + 1,
        // A deadline policy's rejection is the watchdog's act, like an expiry.
        actor: decision.decision === "expired" || decision.decidedBy === DEADLINE_POLICY_ACTOR ? "watchdog" : "human",
        type: "escalation.decided",
        payload: { escalationId: resolution.escalationId, status, ...decision },
        callKey: escalation.decisionKey ? decisionCallKey(escalation.decisionKey) : null,
      },
    ]);
    await insertMessage(tx, d, escalation.runId, decision.decision === "expired" ? "timeout" : "resume", { escalationId: resolution.escalationId });
    const budget = resolution.raisedBudget === undefined ? "" : `, "budget" = ?`;
    await tx.execute(`UPDATE "Run" SET "resumeDeadline" = NULL, "watchdogNote" = COALESCE(?, "watchdogNote")${budget}, "updatedAt" = ${d.now} WHERE "id" = ?`, [
      resolution.note ?? null,
      ...(resolution.raisedBudget === undefined ? [] : [d.json(resolution.raisedBudget)]),
      escalation.runId,
    ]);
    await insertReviewComments(tx, d, resolution);
    if (resolution.auditActor) {
      const detail = {
        runId: escalation.runId,
        decision: decision.decision,
        contentHash: resolution.decidedHash ?? null,
        comment,
        ...(resolution.raisedBudget === undefined ? {} : { budget: resolution.raisedBudget }),
        ...(tally ? { approvedBy: tally.approvedBy, rejectedBy: tally.rejectedBy } : {}),
      };
      await tx.execute(`INSERT INTO "AuditEvent" ("id", "at", "actorId", "actorEmail", "action", "target", "detail") VALUES (?, ${d.now}, ?, ?, 'escalation.decided', ?, ?)`, [
        randomUUID(),
        resolution.auditActor.id,
        resolution.auditActor.email,
        `escalation:${resolution.escalationId}`,
        d.json(detail),
      ]);
    }
    return tally ? { ok: true, runId: escalation.runId, tally } : { ok: true, runId: escalation.runId };
  });
}

/** Whether a pending escalation's deadline has passed by the database's clock (the decision's own transaction checks again). */
export async function isEscalationOverdue(sql: SqlClient, escalationId: string): Promise<boolean> {
  const d = sql.dialect;
  const [row] = await sql.query<{ overdue: unknown }>(`SELECT CASE WHEN "expiresAt" IS NOT NULL AND "expiresAt" <= ${d.now} THEN 1 ELSE 0 END AS "overdue" FROM "Escalation" WHERE "id" = ?`, [escalationId]);
  return Number(row?.overdue ?? 0) === 1;
}

/** Line comments: by the decider, tagged with the decision (or vote) they went with. */
async function insertReviewComments(tx: SqlExecutor, d: SqlDialect, resolution: EscalationResolution): Promise<void> {
  const { decision } = resolution;
  for (const comment of resolution.reviewComments ?? []) {
    await tx.execute(`INSERT INTO "ReviewComment" ("id", "escalationId", "author", "line", "endLine", "body", "suggestion", "decision", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ${d.now})`, [
      randomUUID(),
      resolution.escalationId,
      decision.decidedBy,
      comment.line,
      comment.endLine ?? null,
      comment.body,
      comment.suggestion ?? null,
      decision.decision,
    ]);
  }
}
