import { createWorkflow } from "@/server/services/workflows/create-workflow";
import { listWorkflows } from "@/server/services/workflows/list-workflows";
import { createWorkflowInput } from "../schemas/workflow";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const workflowRouter = createTRPCRouter({
  list: publicProcedure.query(({ ctx }) => listWorkflows(ctx.db)),
  create: publicProcedure.input(createWorkflowInput).mutation(({ ctx, input }) => createWorkflow(ctx.db, input)),
});
