import { cancelExperiment } from "@/server/services/experiments/cancel-experiment";
import { compareExperimentsById } from "@/server/services/experiments/compare-experiments";
import { createExperiment } from "@/server/services/experiments/create-experiment";
import { experimentFormOptions } from "@/server/services/experiments/form-options";
import { getExperiment } from "@/server/services/experiments/get-experiment";
import { listExperiments } from "@/server/services/experiments/list-experiments";
import { compareExperimentsInput, createExperimentInput, experimentIdInput, listExperimentsInput } from "../schemas/experiments";
import { createTRPCRouter, permittedProcedure, viewerProcedure } from "../trpc";

export const experimentsRouter = createTRPCRouter({
  list: viewerProcedure.input(listExperimentsInput).query(({ ctx, input }) => listExperiments(ctx.db, input)),
  /** Header, progress, results so far and one row per case: the live page polls it. */
  get: viewerProcedure.input(experimentIdInput).query(({ ctx, input }) => getExperiment(ctx.db, input.id)),
  compare: viewerProcedure.input(compareExperimentsInput).query(({ ctx, input }) => compareExperimentsById(ctx.db, input)),
  formOptions: viewerProcedure.query(({ ctx }) => experimentFormOptions(ctx.db)),
  create: permittedProcedure("start_experiment").input(createExperimentInput).mutation(({ ctx, input }) => createExperiment(ctx.db, input, ctx.actor.email)),
  cancel: permittedProcedure("cancel_experiment").input(experimentIdInput).mutation(({ ctx, input }) => cancelExperiment(ctx.db, input.id, ctx.actor.email)),
});
