import { assignEscalation, claimEscalation, listAssignableReviewers } from "@/server/services/escalations/claim-escalation";
import { decideEscalation } from "@/server/services/escalations/decide-escalation";
import { findNextPending } from "@/server/services/escalations/find-next-pending";
import { getEscalation } from "@/server/services/escalations/get-escalation";
import { listEscalations } from "@/server/services/escalations/list-escalations";
import { wakeOutboxDispatchers } from "@/server/services/outbox/outbox-signal";
import { assignEscalationInput, claimEscalationInput, decideEscalationInput, getEscalationInput, listEscalationsInput, nextPendingInput } from "../schemas/escalation";
import { createTRPCRouter, permittedProcedure, viewerProcedure } from "../trpc";

export const escalationRouter = createTRPCRouter({
  list: viewerProcedure.input(listEscalationsInput).query(({ ctx, input }) => listEscalations(ctx.db, input ?? {}, { reviewer: ctx.actor.email })),
  /** Records that the caller has seen the artifact it returns, when they may decide it. */
  get: viewerProcedure.input(getEscalationInput).query(({ ctx, input }) => getEscalation(ctx.db, ctx.actor, input)),
  /** The pending escalation to review after `after`, in queue order (oldest deadline first). */
  nextPending: viewerProcedure.input(nextPendingInput).query(({ ctx, input }) => findNextPending(ctx.db, ctx.actor.email, input)),
  claim: permittedProcedure("claim_escalation").input(claimEscalationInput).mutation(({ ctx, input }) => claimEscalation(ctx.db, ctx.actor, input)),
  reviewers: permittedProcedure("claim_escalation").query(({ ctx }) => listAssignableReviewers(ctx.db)),
  assign: permittedProcedure("claim_escalation").input(assignEscalationInput).mutation(({ ctx, input }) => assignEscalation(ctx.db, input)),
  decide: permittedProcedure("decide_escalation").input(decideEscalationInput).mutation(async ({ ctx, input }) => {
    const outcome = await decideEscalation(ctx.db, ctx.actor, input);
    wakeOutboxDispatchers();
    return outcome;
  }),
});
