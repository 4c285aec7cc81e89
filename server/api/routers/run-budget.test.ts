import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { readRunBudget } from "@/server/usage/budget";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { createTestCaller, TEST_DATABASES } from "../testing/test-caller";

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`a start request's budget on ${provider}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(provider);
    });
    afterAll(async () => {
      await database?.dispose();
    });

    it("gives the run its own budget, in place of the workflow's", async () => {
      const caller = createTestCaller(database.db);
      const workflow = await caller.workflow.create({ definition: { ...minimalWorkflowDefinition("Budgeted"), budget: { tokens: 500, on_exceed: "escalate" } } });
      const own = await caller.run.create({ workflowId: workflow.id, specification: "own", budget: { usd: 0.25, onExceed: "fail" } });
      const inherited = await caller.run.create({ workflowId: workflow.id, specification: "inherited" });
      const budgetOf = async (id: string) => readRunBudget((await database.db.run.findUniqueOrThrow({ where: { id } })).budget);
      expect(await budgetOf(own.id)).toEqual({ tokens: null, usd: 0.25, onExceed: "fail", grants: [] });
      expect(await budgetOf(inherited.id)).toEqual({ tokens: 500, usd: null, onExceed: "escalate", grants: [] });
    });

    // In-process callers get zod's issues with their paths; over HTTP the error formatter words them (home.spec.ts).
    it("names the field of a bad budget", async () => {
      const caller = createTestCaller(database.db);
      const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("Unbudgeted") });
      await expect(caller.run.create({ workflowId: workflow.id, specification: "x", budget: { tokens: 0 } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/"budget",\s*"tokens"[\s\S]*must be at least 1|must be at least 1[\s\S]*"budget",\s*"tokens"/) });
      await expect(caller.run.create({ workflowId: workflow.id, specification: "x", budget: {} })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("needs tokens, usd or both") });
      await expect(caller.run.create({ workflowId: workflow.id, specification: "x", budget: { tokens: 5, onExceed: "shrug" as "fail" } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("onExceed") });
    });
  });
}
