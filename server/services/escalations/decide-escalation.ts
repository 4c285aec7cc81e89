import { decisionKeyKind, type RecordedDecision } from "@/server/durable/decision";
import { describeTally, type QuorumTally } from "@/server/review-policy/quorum";
import type { Db } from "@/server/persistence/db";
import { durableStoreFor } from "../durable-store-for";
import { conflict, invalidInput, notFound } from "../errors";
import { statusAfter, type Decider, type DecisionKind } from "./decision-kinds";
import { describeClosedEscalation } from "./describe-closed";
import { groupRefusal } from "./group-rule";
import { hasSeenEscalation } from "./record-view";
import { approvalRefusal } from "./seen-code-rule";
import type { LineComment } from "@/server/review-comments/line-comment";
import { lineCommentsOfDecision } from "./line-comments-of-decision";
import { routeBeforeDeciding } from "./route-before-deciding";

export interface DecideEscalationInput {
  readonly escalationId: string;
  /** SHA-256 of the artifact the reviewer looked at; refused unless it is the pending one. */
  readonly contentHash: string;
  readonly decision: DecisionKind;
  readonly comment?: string;
  readonly editedContent?: string;
  /** Line comments submitted with the decision (lineCommentsOfDecision: suggestions, request changes). */
  readonly comments?: readonly LineComment[];
}

export interface DecisionOutcome {
  readonly escalationId: string;
  readonly runId: string;
  /** "pending" when the decision was a vote under a quorum and the escalation waits for more. */
  readonly status: "approved" | "rejected" | "pending";
  readonly decision: DecisionKind;
  readonly decidedBy: string;
  readonly decidedAt: Date;
  readonly comment: string | null;
  /** Under a quorum policy: the votes so far, and where they stand ("1 of 2 approvals (ada@…)"). */
  readonly quorum: (QuorumTally & { readonly summary: string }) | null;
}

/**
 * Records a reviewer's decision and the message that resumes the run, in one transaction
 * (DurableStore.resolveEscalation): of concurrent decisions exactly one wins, the others are told
 * who decided first. Refused when the escalation is no longer pending (decided, expired,
 * cancelled), past its deadline by the database's clock (checked in that transaction), or when
 * `contentHash` is not the pending artifact's, when it is offered to a group the decider is not in
 * (group-rule.ts; one the routing pass has not reached yet is routed first), and an
 * approval of a fatal escalation by someone who never opened its review page (seen-code-rule.ts;
 * `requireSeenCode: false` only for the CLI, whose operator works on the database itself).
 * Under a quorum policy (server/review-policy/quorum.ts) the decision is the reviewer's vote:
 * refused when they voted before or (when the policy says so) started the run; it decides the
 * escalation only when it completes the quorum, and otherwise returns status "pending".
 */
export async function decideEscalation(db: Db, decider: Decider, input: DecideEscalationInput, now = new Date(), options: { requireSeenCode?: boolean } = {}): Promise<DecisionOutcome> {
  const escalation = await db.escalation.findUnique({
    where: { id: input.escalationId },
    select: { id: true, runId: true, status: true, decision: true, decidedBy: true, decidedAt: true, expiresAt: true, decisionKey: true, reviewGroup: true, routedAt: true, artifact: { select: { contentHash: true, content: true, fatal: true } } },
  });
  if (!escalation) throw notFound("Escalation", input.escalationId);
  // Before the routing pass reaches it an escalation has no group or quorum yet: route it now, or a
  // quick decision would skip what the routing document asks of it.
  if (escalation.routedAt === null && escalation.status === "pending") escalation.reviewGroup = await routeBeforeDeciding(db, escalation.id);
  const { artifact } = escalation;
  // A budget escalation has no attempt to approve: it is decided by a grant or a refusal (services/usage).
  if (!artifact) throw invalidInput("decision", "this is a budget escalation: grant the run more budget or refuse");
  if (escalation.status !== "pending") throw conflict(describeClosedEscalation(escalation));
  const notYours = await groupRefusal(db, escalation.reviewGroup, decider);
  if (notYours) throw conflict(`Escalation ${escalation.id}: ${notYours}.`);
  const store = durableStoreFor(db);
  const overdue = () => conflict(`Escalation ${escalation.id} expired${escalation.expiresAt ? ` at ${escalation.expiresAt.toISOString()}` : ""}: run ${escalation.runId} no longer waits for a decision.`);
  // Past its deadline by the database's clock: said first, as it is what matters (the decision's transaction checks again).
  if (await store.isEscalationOverdue(escalation.id)) throw overdue();
  // The escalated artifact never changes, so checking its hash before the transaction is exact.
  if (input.contentHash !== artifact.contentHash) {
    throw conflict(`contentHash: ${input.contentHash.slice(0, 12)}… is not the pending artifact (${artifact.contentHash.slice(0, 12)}…); reload the escalation and decide on what is pending.`);
  }
  if ((options.requireSeenCode ?? true) && statusAfter(input.decision) === "approved") {
    const refusal = approvalRefusal({ fatal: artifact.fatal, seenByYou: artifact.fatal && (await hasSeenEscalation(db, escalation.id, decider.email)) });
    if (refusal) throw conflict(`Escalation ${escalation.id}: ${refusal}.`);
  }
  const lineComments = input.comments ?? [];
  const withComments = lineCommentsOfDecision(input.decision, artifact.content, { comment: input.comment?.trim() ?? "", editedContent: input.editedContent, comments: lineComments });
  const comment = withComments.comment;
  if (input.decision === "reject_with_feedback" && comment === "") throw invalidInput("comment", "reject with feedback needs the feedback for the next attempt");
  let editedContent: string | undefined;
  if (input.decision === "edit_and_approve") {
    editedContent = withComments.editedContent;
    if (editedContent === undefined || editedContent.trim() === "") throw invalidInput("editedContent", "edit and approve needs the edited artifact");
    if (editedContent === artifact.content) throw invalidInput("editedContent", "is unchanged; use approve to accept the artifact as it is");
    if (decisionKeyKind(escalation.decisionKey) === "exhausted") {
      throw invalidInput("decision", "this step spent its retry budget; approve, reject or reject with feedback (an edit cannot be checked again)");
    }
  }

  const status = statusAfter(input.decision);
  const decision = recordedDecision(input.decision, decider.email, input.contentHash, comment, editedContent);
  const outcome = await store.resolveEscalation({
    escalationId: escalation.id,
    decision,
    decidedHash: input.contentHash,
    auditActor: { id: decider.id ?? null, email: decider.email },
    refuseOverdue: true,
    ...(lineComments.length > 0 ? { reviewComments: lineComments } : {}),
    asQuorumVote: true,
  });
  if (!outcome.ok && outcome.status === "overdue") throw overdue();
  if (!outcome.ok && outcome.status === "refused") throw conflict(`Escalation ${escalation.id}: ${outcome.reason}.`);
  if (!outcome.ok && outcome.status === "voted") {
    return { escalationId: escalation.id, runId: outcome.runId, status: "pending", decision: input.decision, decidedBy: decider.email, decidedAt: now, comment: comment || null, quorum: withSummary(outcome.tally) };
  }
  if (!outcome.ok) {
    const winner = await db.escalation.findUniqueOrThrow({ where: { id: escalation.id }, select: { id: true, runId: true, status: true, decision: true, decidedBy: true, decidedAt: true } });
    throw conflict(describeClosedEscalation(winner));
  }
  return { escalationId: escalation.id, runId: outcome.runId, status, decision: input.decision, decidedBy: decider.email, decidedAt: now, comment: comment || null, quorum: outcome.tally ? withSummary(outcome.tally) : null };
}

function withSummary(tally: QuorumTally): QuorumTally & { summary: string } {
  return { ...tally, summary: describeTally(tally) };
}

/** The decision as the durable protocol records it; the validation above guarantees each kind's fields. */
function recordedDecision(kind: DecisionKind, decidedBy: string, contentHash: string, comment: string, editedContent: string | undefined): RecordedDecision {
  const common = { decidedBy, contentHash, ...(comment ? { comment } : {}) };
  switch (kind) {
    case "approve":
    case "reject":
      return { decision: kind, ...common };
    case "reject_with_feedback":
      return { decision: kind, ...common, comment };
    case "edit_and_approve":
      return { decision: kind, ...common, editedContent: editedContent ?? "" };
    default: {
      const unreachable: never = kind;
      throw new Error(`unknown decision ${String(unreachable)}`);
    }
  }
}
