import { z } from "zod";
import { INSIGHT_RANGES } from "@/server/services/insights/time-window";

/** The Metrics page's query: a time range and, optionally, one workflow. */
export const insightsInput = z.strictObject({
  range: z.enum(INSIGHT_RANGES, { error: `must be one of ${INSIGHT_RANGES.join(", ")}` }),
  workflowId: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
});
