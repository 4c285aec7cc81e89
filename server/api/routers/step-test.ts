import { getEnv } from "@/server/env";
import { loadModelDirectory } from "@/server/models/load-from-prisma";
import { listPinnableArtifacts } from "@/server/services/step-test/list-pinnable-artifacts";
import { testStepInChildProcess } from "@/server/services/step-test/test-step-in-child";
import { pinnableArtifactsInput, testStepInput } from "../schemas/step-test";
import { createTRPCRouter, permittedProcedure, viewerProcedure } from "../trpc";

export const stepTestRouter = createTRPCRouter({
  /** Runs one step of the draft in isolation (model, pasted answer or cassette); stores nothing. Reviewers and admins, who may start runs. */
  run: permittedProcedure("start_run")
    .input(testStepInput)
    .mutation(async ({ ctx, input, signal }) => testStepInChildProcess(input, ctx.actor, { signal, models: await loadModelDirectory(ctx.db, getEnv()) })),
  /** Artifacts earlier runs produced for the step's dependencies, to pin one as a test input. */
  pinnable: viewerProcedure.input(pinnableArtifactsInput).query(({ ctx, input }) => listPinnableArtifacts(ctx.db, input)),
});
