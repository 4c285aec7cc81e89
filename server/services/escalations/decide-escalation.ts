import type { Db } from "@/server/persistence/db";
import { conflict, invalidInput, notFound } from "../errors";
import { statusAfter, type Decider, type DecisionKind } from "./decision-kinds";
import { describeClosedEscalation } from "./describe-closed";
import { hasSeenEscalation } from "./record-view";
import { runStoreFor } from "./run-store-for";
import { approvalRefusal } from "./seen-code-rule";

export interface DecideEscalationInput {
  readonly escalationId: string;
  /** SHA-256 of the artifact the reviewer looked at; refused unless it is the pending one. */
  readonly contentHash: string;
  readonly decision: DecisionKind;
  readonly comment?: string;
  readonly editedContent?: string;
}

export interface DecisionOutcome {
  readonly escalationId: string;
  readonly runId: string;
  readonly status: "approved" | "rejected";
  readonly decision: DecisionKind;
  readonly decidedBy: string;
  readonly decidedAt: Date;
  readonly comment: string | null;
}

/**
 * Records a reviewer's decision and the message that resumes the run, in one transaction
 * (SqlRunStore.resolveEscalation): of concurrent decisions exactly one wins, the others are told
 * who decided first. Refused when the escalation is no longer pending (decided, expired,
 * cancelled), past its deadline, or when `contentHash` is not the pending artifact's, and an
 * approval of a fatal escalation by someone who never opened its review page (seen-code-rule.ts;
 * `requireSeenCode: false` only for the CLI, whose operator works on the database itself).
 */
export async function decideEscalation(db: Db, decider: Decider, input: DecideEscalationInput, now = new Date(), options: { requireSeenCode?: boolean } = {}): Promise<DecisionOutcome> {
  const escalation = await db.escalation.findUnique({
    where: { id: input.escalationId },
    select: { id: true, runId: true, status: true, decision: true, decidedBy: true, decidedAt: true, expiresAt: true, decisionKey: true, artifact: { select: { contentHash: true, content: true, fatal: true } } },
  });
  if (!escalation) throw notFound("Escalation", input.escalationId);
  if (escalation.status !== "pending") throw conflict(describeClosedEscalation(escalation));
  if (escalation.expiresAt && escalation.expiresAt.getTime() <= now.getTime()) {
    throw conflict(`Escalation ${escalation.id} expired at ${escalation.expiresAt.toISOString()}: run ${escalation.runId} no longer waits for a decision.`);
  }
  // The escalated artifact never changes, so checking its hash before the transaction is exact.
  if (input.contentHash !== escalation.artifact.contentHash) {
    throw conflict(`contentHash: ${input.contentHash.slice(0, 12)}… is not the pending artifact (${escalation.artifact.contentHash.slice(0, 12)}…); reload the escalation and decide on what is pending.`);
  }
  if ((options.requireSeenCode ?? true) && statusAfter(input.decision) === "approved") {
    const refusal = approvalRefusal({ fatal: escalation.artifact.fatal, seenByYou: escalation.artifact.fatal && (await hasSeenEscalation(db, escalation.id, decider.email)) });
    if (refusal) throw conflict(`Escalation ${escalation.id}: ${refusal}.`);
  }
  const comment = input.comment?.trim() ?? "";
  if (input.decision === "reject_with_feedback" && comment === "") throw invalidInput("comment", "reject with feedback needs the feedback for the next attempt");
  let editedContent: string | undefined;
  if (input.decision === "edit_and_approve") {
    editedContent = input.editedContent;
    if (editedContent === undefined || editedContent.trim() === "") throw invalidInput("editedContent", "edit and approve needs the edited artifact");
    if (editedContent === escalation.artifact.content) throw invalidInput("editedContent", "is unchanged; use approve to accept the artifact as it is");
    if (escalation.decisionKey?.endsWith("/exhausted/decision")) {
      throw invalidInput("decision", "this step spent its retry budget; approve, reject or reject with feedback (an edit cannot be checked again)");
    }
  }

  const status = statusAfter(input.decision);
  const outcome = await runStoreFor(db).resolveEscalation(
    {
      escalationId: escalation.id,
      status,
      decision: {
        decision: input.decision,
        decidedBy: decider.email,
        contentHash: input.contentHash,
        ...(comment ? { comment } : {}),
        ...(editedContent !== undefined ? { editedContent } : {}),
      },
      decidedBy: decider.email,
      comment: comment || null,
      kind: "resume",
      decisionName: input.decision,
      decidedHash: input.contentHash,
      auditActor: { id: decider.id ?? null, email: decider.email },
    },
    now,
  );
  if (!outcome.ok) {
    const winner = await db.escalation.findUniqueOrThrow({ where: { id: escalation.id }, select: { id: true, runId: true, status: true, decision: true, decidedBy: true, decidedAt: true } });
    throw conflict(describeClosedEscalation(winner));
  }
  return { escalationId: escalation.id, runId: outcome.runId, status, decision: input.decision, decidedBy: decider.email, decidedAt: now, comment: comment || null };
}
