import type { BudgetAction, BudgetCrossing } from "../usage/budget";

/**
 * A turn stopped before a model call because the run reached its budget: it fails the run
 * (`fail`, or a person refused more) or suspends it on a budget escalation (`escalate`). The
 * journal raises it through the turn's abort signal, so no generator, guard or agent policy can
 * turn it into an attempt's failure: the turn's owner (the worker) ends the run as it says.
 */
export class BudgetStop extends Error {
  override readonly name = "BudgetStop";
  constructor(
    readonly action: BudgetAction,
    readonly crossing: BudgetCrossing,
    /** The key the decision on the escalation is recorded under (budgetDecisionKey). */
    readonly decisionKey: string,
    /** The step whose model call was stopped. */
    readonly stepName: string,
    message: string,
  ) {
    super(message);
  }
}

export function isBudgetStop(value: unknown): value is BudgetStop {
  return value instanceof BudgetStop;
}

/** The step a call key belongs to: `<step>[#<visit>]/attempt-<n>/…` → `<step>`. */
export function stepOfCallKey(key: string): string {
  const first = key.split("/")[0] ?? key;
  return first.replace(/#\d+$/, "") || "(run)";
}

/** Model calls are checked against the budget: a live model, a judge, an agent's model policy, a cassette standing in for a model. */
export function isModelCall(policy: string): boolean {
  return policy === "model" || policy === "replay";
}
