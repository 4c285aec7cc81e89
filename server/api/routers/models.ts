import { createModelEndpoint, deleteModelEndpoint, updateModelEndpoint } from "@/server/services/model-endpoints/save-model-endpoint";
import { listModelEndpoints, modelStatus } from "@/server/services/model-endpoints/list-model-endpoints";
import { planRunModelsFor } from "@/server/services/model-endpoints/plan-run-models";
import { testModelEndpoint } from "@/server/services/model-endpoints/test-model-endpoint";
import { createModelEndpointInput, deleteModelEndpointInput, runModelPlanInput, testModelEndpointInput, updateModelEndpointInput } from "../schemas/models";
import { adminProcedure, createTRPCRouter, viewerProcedure } from "../trpc";

/** Model endpoints (Admin → Models): managed by admins; their API keys never leave the server. */
export const modelsRouter = createTRPCRouter({
  list: adminProcedure.query(({ ctx }) => listModelEndpoints(ctx.db)),
  create: adminProcedure.input(createModelEndpointInput).mutation(({ ctx, input }) => createModelEndpoint(ctx.db, input, ctx.actor)),
  update: adminProcedure.input(updateModelEndpointInput).mutation(({ ctx, input }) => updateModelEndpoint(ctx.db, input, ctx.actor)),
  delete: adminProcedure.input(deleteModelEndpointInput).mutation(({ ctx, input }) => deleteModelEndpoint(ctx.db, input.id, ctx.actor)),
  testConnection: adminProcedure.input(testModelEndpointInput).mutation(({ ctx, input }) => testModelEndpoint(ctx.db, input)),
  /** Whether steps that name no endpoint have a model (the new-workflow form), for everyone signed in. */
  status: viewerProcedure.query(({ ctx }) => modelStatus(ctx.db)),
  /** Which endpoint and model each step of a run would call, or why it cannot start (the Run dialog). */
  planRun: viewerProcedure.input(runModelPlanInput).query(({ ctx, input }) => planRunModelsFor(ctx.db, input)),
});
