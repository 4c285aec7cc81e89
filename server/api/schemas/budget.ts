import { z } from "zod";
import { BUDGET_ACTIONS, MAX_BUDGET_TOKENS, MAX_BUDGET_USD } from "@/server/usage/budget";

const id = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

/** A budget escalation's decision: a grant (tokens and/or dollars to add) or, without one, a refusal. */
export const decideBudgetInput = z
  .object({
    escalationId: id,
    grant: z
      .object({
        tokens: z.number().int("must be a whole number of tokens").min(0, "must not be negative").max(MAX_BUDGET_TOKENS, `must be at most ${MAX_BUDGET_TOKENS}`).optional(),
        usd: z.number().min(0, "must not be negative").max(MAX_BUDGET_USD, `must be at most ${MAX_BUDGET_USD}`).optional(),
      })
      .strict()
      .optional(),
    comment: z.string().max(20_000, "must be at most 20,000 characters").optional(),
  })
  .strict();

/** A run's budget in a start request: `{ tokens?, usd?, onExceed? }`, checked again by server/usage/budget.ts. */
export const startBudgetInput = z
  .object({
    tokens: z.number().int("must be a whole number of tokens").min(1, "must be at least 1").max(MAX_BUDGET_TOKENS, `must be at most ${MAX_BUDGET_TOKENS}`).optional(),
    usd: z.number().gt(0, "must be above 0").max(MAX_BUDGET_USD, `must be at most ${MAX_BUDGET_USD}`).optional(),
    onExceed: z.enum(BUDGET_ACTIONS).optional(),
  })
  .strict()
  .refine((budget) => budget.tokens !== undefined || budget.usd !== undefined, { message: "needs tokens, usd or both", path: ["tokens"] });
