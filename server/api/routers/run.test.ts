import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { createTestCaller, TEST_DATABASES } from "../testing/test-caller";

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`run router on ${provider}`, () => {
    let database: TestDatabase;
    let caller: ReturnType<typeof createTestCaller>;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      caller = createTestCaller(database.db);
    });
    afterAll(() => database?.dispose());

    it("queues a run on the workflow's latest version with an empty workflow state", async () => {
      const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("Tokenizer") });

      const { id } = await caller.run.create({ workflowId: workflow.id, specification: "  Tokenize arithmetic  " });

      const row = await database.db.run.findUniqueOrThrow({
        where: { id },
        select: { status: true, specification: true, workflowState: true, workflowVersion: { select: { version: true } } },
      });
      expect(row).toEqual({
        status: "queued",
        specification: "Tokenize arithmetic",
        workflowState: { guards: {}, artifactIds: {} },
        workflowVersion: { version: 1 },
      });
    });

    it("lists recent runs newest first with their workflow and version", async () => {
      const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("Lister") });
      const first = await caller.run.create({ workflowId: workflow.id, specification: "first" });
      const second = await caller.run.create({ workflowId: workflow.id, specification: "second" });

      const runs = await caller.run.listRecent({ limit: 2 });

      expect(runs.map((run) => run.id)).toEqual([second.id, first.id]);
      expect(runs[0]).toEqual({
        id: second.id,
        status: "queued",
        specification: "second",
        attemptCount: 0,
        createdAt: expect.any(Date),
        finishedAt: null,
        workflow: { id: workflow.id, name: "Lister", version: 1 },
      });
    });

    it("defaults the limit and rejects one above 100", async () => {
      await expect(caller.run.listRecent()).resolves.toBeInstanceOf(Array);
      await expect(caller.run.listRecent({ limit: 101 })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("limit"),
      });
    });

    it("rejects an unknown workflow with NOT_FOUND naming the id", async () => {
      await expect(caller.run.create({ workflowId: "no-such-workflow", specification: "x" })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: expect.stringContaining("no-such-workflow"),
      });
    });

    it("rejects a blank specification with BAD_REQUEST naming the field", async () => {
      const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("Blank") });

      await expect(caller.run.create({ workflowId: workflow.id, specification: "   " })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("specification"),
      });
    });
  });
}
