import { assignEscalation, claimEscalation, listAssignableReviewers } from "@/server/services/escalations/claim-escalation";
import { decideEscalation } from "@/server/services/escalations/decide-escalation";
import { getEscalation } from "@/server/services/escalations/get-escalation";
import { listEscalations } from "@/server/services/escalations/list-escalations";
import { notifyWebhookDispatcher } from "@/server/services/webhooks/dispatcher-signal";
import { assignEscalationInput, claimEscalationInput, decideEscalationInput, getEscalationInput, listEscalationsInput } from "../schemas/escalation";
import { createTRPCRouter, reviewerProcedure, viewerProcedure } from "../trpc";

export const escalationRouter = createTRPCRouter({
  list: viewerProcedure.input(listEscalationsInput).query(({ ctx, input }) => listEscalations(ctx.db, input ?? {})),
  get: viewerProcedure.input(getEscalationInput).query(({ ctx, input }) => getEscalation(ctx.db, ctx.actor, input)),
  claim: reviewerProcedure.input(claimEscalationInput).mutation(({ ctx, input }) => claimEscalation(ctx.db, ctx.actor, input)),
  reviewers: reviewerProcedure.query(({ ctx }) => listAssignableReviewers(ctx.db)),
  assign: reviewerProcedure.input(assignEscalationInput).mutation(({ ctx, input }) => assignEscalation(ctx.db, input)),
  decide: reviewerProcedure.input(decideEscalationInput).mutation(async ({ ctx, input }) => {
    const outcome = await decideEscalation(ctx.db, ctx.actor, input);
    notifyWebhookDispatcher();
    return outcome;
  }),
});
