import { z } from "zod";

export const createWorkflowInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  description: z.string().trim().max(2000, "must be at most 2000 characters").optional(),
  // Any JSON object until the definition format is specified (a later issue). z.json() rather
  // than z.unknown(): superjson can deliver Dates, Maps or BigInts, which are not JSON.
  definition: z.record(z.string(), z.json(), { error: "must be a JSON object" }),
});
