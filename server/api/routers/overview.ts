import { canDecide } from "@/server/services/escalations/decision-kinds";
import { readFirstRunGuide } from "@/server/services/overview/first-run-guide";
import { createTRPCRouter, hasRole, viewerProcedure } from "../trpc";

/** What the overview shows beyond the lists: the first-run guide, for the person asking. */
export const overviewRouter = createTRPCRouter({
  firstRunGuide: viewerProcedure.query(({ ctx }) =>
    // Starting runs is run.create's rule (reviewer and above); deciding is the escalation router's.
    readFirstRunGuide(ctx.db, { email: ctx.actor.email, mayStartRuns: hasRole(ctx.actor.role, "reviewer"), mayDecide: canDecide(ctx.actor.role) }),
  ),
});
