import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { createTestCaller, TEST_ADMIN, TEST_DATABASES } from "../testing/test-caller";

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`renaming and archiving workflows on ${provider}`, () => {
    let database: TestDatabase;
    let caller: ReturnType<typeof createTestCaller>;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      caller = createTestCaller(database.db);
    });
    afterAll(() => database?.dispose());

    it("renames a workflow into a new version carrying the new name; the run of the old version keeps it", async () => {
      const saved = await caller.workflow.save({ definition: minimalWorkflowDefinition("Lexer") });
      const run = await caller.run.create({ workflowId: saved.id, specification: "lex" });

      expect(await caller.workflow.rename({ name: "Lexer", newName: "Lexer v2.final" })).toEqual({ id: saved.id, name: "Lexer v2.final", version: 2 });

      expect(await caller.workflow.export({ name: "Lexer v2.final" })).toMatch(/^\s+name: Lexer v2\.final$/m);
      expect(await caller.workflow.export({ name: "Lexer v2.final", version: 1 })).toMatch(/^\s+name: Lexer$/m);
      await expect(caller.workflow.export({ name: "Lexer" })).rejects.toMatchObject({ code: "NOT_FOUND" });
      const kept = await database.db.run.findUniqueOrThrow({ where: { id: run.id }, select: { workflowVersion: { select: { version: true, workflowId: true } } } });
      expect(kept.workflowVersion).toEqual({ version: 1, workflowId: saved.id });
      const audit = await database.db.auditEvent.findMany({ where: { action: "workflow.renamed" }, select: { actorEmail: true, target: true, detail: true } });
      expect(audit).toEqual([{ actorEmail: TEST_ADMIN.email, target: "workflow:Lexer v2.final", detail: { from: "Lexer", to: "Lexer v2.final", version: 2 } }]);
      // Saving under the new name adds to the same workflow.
      expect(await caller.workflow.save({ definition: { ...minimalWorkflowDefinition("Lexer v2.final"), description: "changed" } })).toMatchObject({ id: saved.id, version: 3 });
    });

    it.each([
      ["x".repeat(300), "must be at most 100 characters (it has 300)"],
      ["a/../../b", "may hold only letters A–Z, digits, spaces, '-', '_' and '.'"],
      [" padded", "must start and end with a letter or a digit"],
      ["a..b", "must not contain '..'"],
    ])("refuses the new name %j and changes nothing", async (newName, problem) => {
      await caller.workflow.save({ definition: minimalWorkflowDefinition("Stable") });
      // Over HTTP the message reads "newName: <problem>" (the error formatter; see http-handler.test.ts).
      await expect(caller.workflow.rename({ name: "Stable", newName })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(problem) });
      expect((await caller.workflow.versions({ name: "Stable" })).versions).toHaveLength(1);
    });

    it("refuses a name another workflow has, the same name, and an unknown workflow", async () => {
      await caller.workflow.save({ definition: minimalWorkflowDefinition("Taken") });
      await caller.workflow.save({ definition: minimalWorkflowDefinition("Mover") });
      await expect(caller.workflow.rename({ name: "Mover", newName: "Taken" })).rejects.toMatchObject({ code: "CONFLICT", message: 'newName: a workflow named "Taken" already exists' });
      await expect(caller.workflow.rename({ name: "Mover", newName: "Mover" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "newName: is the workflow's name already" });
      await expect(caller.workflow.rename({ name: "Nobody", newName: "Somebody" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("refuses to save a document whose name breaks the rule, naming the field", async () => {
      await expect(caller.workflow.save({ definition: minimalWorkflowDefinition("a/../../b") })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("name: may hold only letters A–Z, digits, spaces, '-', '_' and '.'"),
      });
      await expect(caller.workflow.save({ definition: minimalWorkflowDefinition("y".repeat(300)) })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("must be at most 100 characters") });
      expect((await caller.workflow.list({ includeArchived: true })).map((workflow) => workflow.name)).not.toContain("a/../../b");
    });

    it("archives a workflow: hidden from the default list, not runnable, its runs kept; unarchiving brings it back", async () => {
      const saved = await caller.workflow.save({ definition: minimalWorkflowDefinition("Shelved") });
      const run = await caller.run.create({ workflowId: saved.id, specification: "before archiving" });

      const archived = await caller.workflow.setArchived({ name: "Shelved", archived: true });
      expect(archived.archivedAt).toBeInstanceOf(Date);

      expect((await caller.workflow.list()).map((workflow) => workflow.name)).not.toContain("Shelved");
      expect((await caller.workflow.list({ includeArchived: true })).find((workflow) => workflow.name === "Shelved")?.archivedAt).toEqual(archived.archivedAt);
      await expect(caller.run.create({ workflowId: saved.id, specification: "after" })).rejects.toMatchObject({ code: "CONFLICT", message: 'workflow "Shelved" is archived; unarchive it to run it' });
      await expect(caller.run.rerun({ id: run.id })).rejects.toMatchObject({ code: "CONFLICT" });
      expect((await caller.run.get({ id: run.id })).id).toBe(run.id);
      // Archiving again keeps the first date.
      expect((await caller.workflow.setArchived({ name: "Shelved", archived: true })).archivedAt).toEqual(archived.archivedAt);

      expect(await caller.workflow.setArchived({ name: "Shelved", archived: false })).toEqual({ name: "Shelved", archivedAt: null });
      expect((await caller.workflow.list()).map((workflow) => workflow.name)).toContain("Shelved");
      await expect(caller.run.create({ workflowId: saved.id, specification: "after" })).resolves.toMatchObject({ version: 1 });
      const actions = (await database.db.auditEvent.findMany({ where: { target: "workflow:Shelved" }, orderBy: { at: "asc" }, select: { action: true } })).map((event) => event.action);
      expect(actions).toEqual(["workflow.saved", "workflow.archived", "workflow.unarchived"]);
    });

    it("lets a reviewer rename and archive, not a viewer", async () => {
      await caller.workflow.save({ definition: minimalWorkflowDefinition("Guarded") });
      const viewer = createTestCaller(database.db, { id: "v", email: "viewer@example.com", role: "viewer", via: "session" });
      const reviewer = createTestCaller(database.db, { id: "r", email: "reviewer@example.com", role: "reviewer", via: "session" });
      await expect(viewer.workflow.rename({ name: "Guarded", newName: "Unguarded" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(viewer.workflow.setArchived({ name: "Guarded", archived: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(reviewer.workflow.setArchived({ name: "Guarded", archived: true })).resolves.toMatchObject({ name: "Guarded" });
      await expect(reviewer.workflow.rename({ name: "Guarded", newName: "Guarded 2" })).resolves.toMatchObject({ name: "Guarded 2" });
    });
  });
}
