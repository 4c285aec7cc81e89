import { z } from "zod";
import { BUDGET_ACTIONS, MAX_BUDGET_TOKENS, MAX_BUDGET_USD } from "../../usage/budget";

/**
 * `budget:` of a workflow: what each of its runs may spend on model calls (tokens counted as
 * prompt + completion, dollars at the price table's prices) and what crossing it does
 * (docs/usage-and-budgets.md). A start request may give a run its own instead.
 */
export const workflowBudgetSchema = z
  .object({
    tokens: z.number({ error: "must be a number of tokens" }).int("must be a whole number of tokens").min(1, "must be at least 1").max(MAX_BUDGET_TOKENS, `must be at most ${MAX_BUDGET_TOKENS}`).optional(),
    usd: z.number({ error: "must be an amount in US dollars" }).gt(0, "must be above 0").max(MAX_BUDGET_USD, `must be at most ${MAX_BUDGET_USD}`).optional(),
    on_exceed: z.enum(BUDGET_ACTIONS, { error: `must be one of ${BUDGET_ACTIONS.join(", ")}` }).optional(),
  })
  .strict()
  .refine((budget) => budget.tokens !== undefined || budget.usd !== undefined, { message: "needs tokens, usd or both" });

export type WorkflowBudget = z.infer<typeof workflowBudgetSchema>;
