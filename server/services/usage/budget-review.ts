import { effectiveLimits, readRunBudget, type BudgetAction, type BudgetGrant } from "@/server/usage/budget";

/** A run's budget next to what it spent, as the review page and the run page show it. */
export interface BudgetReview {
  spentTokens: number;
  tokenLimit: number | null;
  spentUsd: number;
  usdLimit: number | null;
  onExceed: BudgetAction;
  grants: BudgetGrant[];
}

export function budgetReviewOf(budget: unknown, spent: { promptTokens: number; completionTokens: number; costUsd: number }): BudgetReview {
  const read = readRunBudget(budget);
  const limits = read ? effectiveLimits(read) : { tokens: null, usd: null };
  return {
    spentTokens: spent.promptTokens + spent.completionTokens,
    tokenLimit: limits.tokens,
    spentUsd: spent.costUsd,
    usdLimit: limits.usd,
    onExceed: read?.onExceed ?? "escalate",
    grants: [...(read?.grants ?? [])],
  };
}
