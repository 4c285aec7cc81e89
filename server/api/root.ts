import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { adminRouter, sessionRouter } from "./routers/admin";
import { budgetRouter } from "./routers/budget";
import { datasetsRouter } from "./routers/datasets";
import { escalationRouter } from "./routers/escalation";
import { experimentsRouter } from "./routers/experiments";
import { insightsRouter } from "./routers/insights";
import { modelsRouter } from "./routers/models";
import { overviewRouter } from "./routers/overview";
import { pricesRouter } from "./routers/prices";
import { groupsRouter, routingRouter } from "./routers/routing";
import { runRouter } from "./routers/run";
import { stepTestRouter } from "./routers/step-test";
import { toolCallRouter } from "./routers/tool-call";
import { workflowRouter } from "./routers/workflow";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  workflow: workflowRouter,
  run: runRouter,
  admin: adminRouter,
  session: sessionRouter,
  escalation: escalationRouter,
  models: modelsRouter,
  stepTest: stepTestRouter,
  overview: overviewRouter,
  toolCall: toolCallRouter,
  insights: insightsRouter,
  experiments: experimentsRouter,
  datasets: datasetsRouter,
  prices: pricesRouter,
  budget: budgetRouter,
  groups: groupsRouter,
  routing: routingRouter,
});

/** The only thing the UI imports from server/: a type. */
export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** Calls procedures in-process, e.g. `createCaller(createTRPCContext({ db })).workflow.list()`. */
export const createCaller = createCallerFactory(appRouter);
