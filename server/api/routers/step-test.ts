import { listPinnableArtifacts } from "@/server/services/step-test/list-pinnable-artifacts";
import { testStepInChildProcess } from "@/server/services/step-test/test-step-in-child";
import { pinnableArtifactsInput, testStepInput } from "../schemas/step-test";
import { createTRPCRouter, reviewerProcedure, viewerProcedure } from "../trpc";

export const stepTestRouter = createTRPCRouter({
  /** Runs one step of the draft in isolation (model, pasted answer or cassette); stores nothing. Reviewers and admins, who may start runs. */
  run: reviewerProcedure.input(testStepInput).mutation(({ ctx, input, signal }) => testStepInChildProcess(input, ctx.actor, { signal })),
  /** Artifacts earlier runs produced for the step's dependencies, to pin one as a test input. */
  pinnable: viewerProcedure.input(pinnableArtifactsInput).query(({ ctx, input }) => listPinnableArtifacts(ctx.db, input)),
});
