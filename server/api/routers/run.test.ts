import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { createTestCaller, TEST_ADMIN, TEST_DATABASES } from "../testing/test-caller";

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
        promptTokens: 0,
        completionTokens: 0,
        costUsd: 0,
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

    it("pins a chosen version, checks variables against the definition, and carries the bundled cassette for replay", async () => {
      const workflow = await caller.workflow.create({ definition: { ...minimalWorkflowDefinition("tdd-lru-cache"), context: { retries: 1 } } });
      await expect(caller.run.create({ workflowId: workflow.id, specification: "x", variables: { nope: 1 } })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: 'variables.nope: not a context variable of "tdd-lru-cache" (declared: retries)',
      });
      await expect(caller.run.create({ workflowId: workflow.id, specification: "x", variables: { retries: "two" } })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "variables.retries: must be a number, like its default",
      });
      await expect(caller.run.create({ workflowId: workflow.id, specification: "x", version: 7 })).rejects.toMatchObject({ code: "NOT_FOUND" });

      const { id, version } = await caller.run.create({ workflowId: workflow.id, specification: "x", version: 1, variables: { retries: 3 }, generator: "replay" });
      expect(version).toBe(1);
      const run = await database.db.run.findUniqueOrThrow({ where: { id }, select: { contextValues: true, generatorOverride: true } });
      expect(run.contextValues).toEqual({ retries: 3 });
      expect(run.generatorOverride).toMatchObject({ kind: "replay", cassette: { format: "dualstate-cassette/1" } });
      const inbox = await database.db.inboxMessage.findMany({ where: { runId: id } });
      expect(inbox.map((message) => [message.kind, message.status])).toEqual([["start", "pending"]]);
    });

    it("refuses replay for a workflow without a bundled cassette, naming the field", async () => {
      const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("no-cassette-here") });
      await expect(caller.run.create({ workflowId: workflow.id, specification: "x", generator: "replay" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("generator: workflow \"no-cassette-here\" has no bundled replay cassette"),
      });
    });

    it("cancel queues a cancel message; an ended run cannot be cancelled; an unknown one is NOT_FOUND", async () => {
      const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("Cancellable") });
      const { id } = await caller.run.create({ workflowId: workflow.id, specification: "x" });
      expect(await caller.run.cancel({ id, reason: "not needed" })).toEqual({ id, status: "cancelling" });
      const inbox = await database.db.inboxMessage.findMany({ where: { runId: id }, orderBy: { createdAt: "asc" } });
      expect(inbox.map((message) => message.kind)).toEqual(["start", "cancel"]);
      // The signed-in person travels with the message, so the run can say who cancelled it.
      expect(inbox[1]?.payload).toEqual({ reason: "not needed", by: TEST_ADMIN.email });

      await database.db.run.update({ where: { id }, data: { status: "succeeded" } });
      await expect(caller.run.cancel({ id })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("already ended (succeeded)") });
      await expect(caller.run.cancel({ id: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("re-run queues a new run on the same version with the same specification, variables and generator", async () => {
      const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("Rerunnable") });
      const first = await caller.run.create({ workflowId: workflow.id, specification: "again please" });
      await caller.workflow.create({ definition: { ...minimalWorkflowDefinition("Rerunnable"), description: "a second version" } });
      const { id } = await caller.run.rerun({ id: first.id });
      expect(id).not.toBe(first.id);
      const [original, again] = await Promise.all([first.id, id].map((runId) => database.db.run.findUniqueOrThrow({ where: { id: runId }, select: { workflowVersionId: true, specification: true, contextValues: true, generatorOverride: true, status: true } })));
      expect(again).toEqual({ ...original, status: "queued" });
      // Who starts it again is its starter, not the original's.
      const rita = createTestCaller(database.db, { id: "u-rita", email: "rita@example.com", role: "reviewer", via: "token" });
      const { id: third } = await rita.run.rerun({ id: first.id });
      const starters = await database.db.run.findMany({ where: { id: { in: [first.id, id, third] } }, select: { id: true, startedBy: true } });
      expect(Object.fromEntries(starters.map((run) => [run.id, run.startedBy]))).toEqual({ [first.id]: TEST_ADMIN.email, [id]: TEST_ADMIN.email, [third]: "rita@example.com" });
      await expect(caller.run.rerun({ id: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("fork needs a reviewer, names a bad field, and refuses what is no generated attempt of the run", async () => {
      const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("Forkable") });
      const { id } = await caller.run.create({ workflowId: workflow.id, specification: "x" });
      const viewer = createTestCaller(database.db, { id: "test-viewer", email: "viewer@example.com", role: "viewer", via: "session" });
      await expect(viewer.run.fork({ id, artifactId: "a" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(caller.run.fork({ id, artifactId: "a", prompt: "   " })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("prompt") });
      await expect(caller.run.fork({ id, artifactId: "no-such-attempt" })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("no-such-attempt") });
      // A reviewer's edit is stored as an artifact no generator produced: there is nothing to generate anew.
      await database.db.artifact.create({ data: { id: "edited", runId: id, stepName: "s", guardId: "g", attempt: 1, content: "x", contentHash: "h", passed: true, fatal: false, feedback: "" } });
      await expect(caller.run.fork({ id, artifactId: "edited" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("artifactId: ") });
      await expect(caller.run.fork({ id: "nope", artifactId: "a" })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("nope") });
      await expect(caller.run.compare({ a: id, b: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("nope") });
      const same = await viewer.run.compare({ a: id, b: id });
      expect([same.a.id, same.b.id]).toEqual([id, id]);
      expect(same.attempts.map((pair) => [pair.key, pair.sameContent, pair.diff])).toEqual([["s/attempt-1", true, null]]);
    });
  });
}
