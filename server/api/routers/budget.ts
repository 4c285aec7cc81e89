import { decideBudgetEscalation } from "@/server/services/usage/decide-budget-escalation";
import { wakeOutboxDispatchers } from "@/server/services/outbox/outbox-signal";
import { decideBudgetInput } from "../schemas/budget";
import { createTRPCRouter, permittedProcedure } from "../trpc";

/** Budget escalations: a reviewer grants a run more budget (it resumes) or refuses (it fails). */
export const budgetRouter = createTRPCRouter({
  decide: permittedProcedure("decide_escalation").input(decideBudgetInput).mutation(async ({ ctx, input }) => {
    const outcome = await decideBudgetEscalation(ctx.db, ctx.actor, input);
    wakeOutboxDispatchers();
    return outcome;
  }),
});
