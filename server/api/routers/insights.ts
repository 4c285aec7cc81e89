import { getInsights } from "@/server/services/insights/get-insights";
import { insightsInput } from "../schemas/insights";
import { createTRPCRouter, permittedProcedure } from "../trpc";

/** The Metrics page's figures: anyone who may see runs may read them. */
export const insightsRouter = createTRPCRouter({
  get: permittedProcedure("view").input(insightsInput).query(({ ctx, input }) => getInsights(ctx.db, input)),
});
