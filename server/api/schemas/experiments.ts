import { z } from "zod";
import { MAX_CONCURRENCY, MAX_K } from "@/server/services/experiments/experiment-limits";
import { pageNumber, pageSize } from "./list-page";

const id = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export const listExperimentsInput = z
  .object({ page: pageNumber.default(1), pageSize: pageSize.default(25), datasetId: id.optional() })
  .prefault({});

export const experimentIdInput = z.object({ id });

export const compareExperimentsInput = z.object({ baselineId: id, candidateId: id });

export const createExperimentInput = z.object({
  workflowId: id,
  version: z.number().int("must be a whole number").min(1, "must be at least 1").optional(),
  datasetId: id,
  datasetVersion: z.number().int("must be a whole number").min(1, "must be at least 1").optional(),
  k: z.number().int("must be a whole number").min(1, "must be at least 1").max(MAX_K, `must be at most ${MAX_K}`),
  concurrency: z.number().int("must be a whole number").min(1, "must be at least 1").max(MAX_CONCURRENCY, `must be at most ${MAX_CONCURRENCY}`),
  name: z.string().trim().max(200, "must be at most 200 characters").optional(),
  generator: z.enum(["configured", "replay"]).optional(),
  /** A replay cassette's JSON text; the service checks its format and step names. */
  cassette: z.string().min(1, "must not be empty").max(5 * 1024 * 1024, "must be at most 5 MiB").optional(),
  noDelay: z.boolean().optional(),
});
