import type { RecordedDecision } from "@/server/durable/decision";
import type { Db } from "@/server/persistence/db";
import { checkGrant, readRunBudget, withGrant } from "@/server/usage/budget";
import { durableStoreFor } from "../durable-store-for";
import { conflict, invalidInput, notFound } from "../errors";
import { describeClosedEscalation } from "../escalations/describe-closed";
import type { Decider } from "../escalations/decision-kinds";

export interface BudgetDecisionInput {
  readonly escalationId: string;
  /** Grant: how much to add to the run's limits (each only for a limit its budget has). Absent both: refuse. */
  readonly grant?: { readonly tokens?: number; readonly usd?: number };
  readonly comment?: string;
}

export interface BudgetDecisionOutcome {
  readonly escalationId: string;
  readonly runId: string;
  readonly status: "approved" | "rejected";
  readonly decidedBy: string;
}

/**
 * A person's decision on a budget escalation, in the durable store's one transaction: a grant
 * raises the run's budget and resumes it; a refusal resumes it to fail (the resumed turn finds
 * the refusal under the escalation's decision key). Of concurrent decisions exactly one wins.
 */
export async function decideBudgetEscalation(db: Db, decider: Decider, input: BudgetDecisionInput, now = new Date()): Promise<BudgetDecisionOutcome> {
  const escalation = await db.escalation.findUnique({
    where: { id: input.escalationId },
    select: { id: true, kind: true, runId: true, status: true, decision: true, decidedBy: true, decidedAt: true, expiresAt: true, run: { select: { budget: true } } },
  });
  if (!escalation) throw notFound("Escalation", input.escalationId);
  if (escalation.kind !== "budget") throw invalidInput("escalationId", "is not a budget escalation; decide it with approve or reject");
  if (escalation.status !== "pending") throw conflict(describeClosedEscalation(escalation));
  const comment = input.comment?.trim() ?? "";
  let raisedBudget: unknown;
  if (input.grant) {
    const budget = readRunBudget(escalation.run.budget);
    if (!budget) throw conflict(`Run ${escalation.runId} has no budget to raise`);
    const [problem] = checkGrant(budget, input.grant);
    if (problem) throw invalidInput(problem.field, problem.message);
    raisedBudget = withGrant(budget, { tokens: input.grant.tokens ?? 0, usd: input.grant.usd ?? 0, by: decider.email, at: now.toISOString() });
  }
  const decision: RecordedDecision = input.grant
    ? { decision: "approve", decidedBy: decider.email, ...(comment ? { comment } : {}) }
    : { decision: "reject", decidedBy: decider.email, ...(comment ? { comment } : {}) };
  const store = durableStoreFor(db);
  const outcome = await store.resolveEscalation({
    escalationId: escalation.id,
    decision,
    auditActor: { id: decider.id ?? null, email: decider.email },
    refuseOverdue: true,
    ...(raisedBudget === undefined ? {} : { raisedBudget }),
  });
  if (!outcome.ok && outcome.status === "overdue") throw conflict(`Escalation ${escalation.id} expired: run ${escalation.runId} no longer waits for more budget.`);
  if (!outcome.ok) {
    const winner = await db.escalation.findUniqueOrThrow({ where: { id: escalation.id }, select: { id: true, runId: true, status: true, decision: true, decidedBy: true, decidedAt: true } });
    throw conflict(describeClosedEscalation(winner));
  }
  return { escalationId: escalation.id, runId: outcome.runId, status: input.grant ? "approved" : "rejected", decidedBy: decider.email };
}
