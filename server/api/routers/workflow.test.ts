import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { createFailingDb, createTestCaller, TEST_DATABASES } from "../testing/test-caller";

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`workflow router on ${provider}`, () => {
    let database: TestDatabase;
    let caller: ReturnType<typeof createTestCaller>;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      caller = createTestCaller(database.db);
    });
    afterAll(() => database?.dispose());

    it("creates a workflow with version 1 and lists it", async () => {
      const created = await caller.workflow.create({
        name: "  Parser  ",
        description: "Builds a parser",
        definition: { steps: [{ name: "tokenize" }] },
      });

      expect(created).toEqual({ id: expect.any(String), version: 1 });
      const workflows = await caller.workflow.list();
      expect(workflows).toContainEqual({
        id: created.id,
        name: "Parser",
        description: "Builds a parser",
        latestVersion: 1,
        runCount: 0,
        updatedAt: expect.any(Date),
      });
      const version = await database.db.workflowVersion.findFirstOrThrow({
        where: { workflowId: created.id },
        select: { version: true, definition: true },
      });
      expect(version).toEqual({ version: 1, definition: { steps: [{ name: "tokenize" }] } });
    });

    it("counts runs across the workflow's versions", async () => {
      const { id } = await caller.workflow.create({ name: "Counted", definition: {} });
      await caller.run.create({ workflowId: id, specification: "one" });
      await caller.run.create({ workflowId: id, specification: "two" });

      const workflows = await caller.workflow.list();
      expect(workflows.find((workflow) => workflow.id === id)?.runCount).toBe(2);
    });

    it("rejects a duplicate name with CONFLICT naming the name", async () => {
      await caller.workflow.create({ name: "Taken", definition: {} });

      const error = await caller.workflow.create({ name: "Taken", definition: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCError);
      expect(error).toMatchObject({ code: "CONFLICT", message: expect.stringContaining('"Taken"') });
    });

    it("rejects a definition that is not a JSON object with BAD_REQUEST naming the field", async () => {
      const error = await caller.workflow
        .create({ name: "Listy", definition: [] as unknown as Record<string, never> })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("definition") });
    });
  });
}

describe("workflow router with a failing database", () => {
  it("reports an unexpected error as INTERNAL_SERVER_ERROR without its message", async () => {
    const caller = createTestCaller(createFailingDb("SQLITE_CORRUPT at /secret/path/dualstate.db"));

    const error = await caller.workflow.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: "INTERNAL_SERVER_ERROR", message: "Internal server error" });
    expect(String((error as Error).message)).not.toContain("secret");
  });
});
