import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCaller, TEST_ADMIN, TEST_DATABASES } from "@/server/api/testing/test-caller";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { validateWorkflowDocument, type WorkflowDefinition } from "@/server/workflows/definition";
import { isServiceError } from "../errors";
import { saveWorkflowDefinition } from "../workflows/save-definition";
import { setWorkflowArchived } from "../workflows/archive-workflow";
import { enqueueRun } from "./enqueue-run";

/** A workflow whose agent step may start a run of `subWorkflow` through its tool `summarize`. */
function withSubWorkflowTool(name: string, subWorkflow: string): WorkflowDefinition {
  const base = minimalWorkflowDefinition(name);
  const document = {
    ...base,
    tools: { summarize: { kind: "workflow", workflow: subWorkflow, description: "Summarize a text with another workflow." } },
    steps: [{ ...base.steps[0], generator: { kind: "agent", tools: ["summarize"] } }],
  };
  const validated = validateWorkflowDocument(JSON.stringify(document));
  if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
  return validated.definition;
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`run starts and workflow tools on ${provider}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(provider);
    });
    afterAll(() => database.dispose());

    it("refuses a run whose agent step's workflow tool names a workflow that does not exist, naming the step, the tool and the workflow", async () => {
      const saved = await saveWorkflowDefinition(database.db, withSubWorkflowTool("needs-a-summarizer", "summarizer"));
      expect(await refusal(enqueueRun(database.db, { workflowVersionId: saved.versionId, specification: "x", contextValues: {}, startedBy: "ada@example.com" }))).toEqual({
        code: "NOT_CONFIGURED",
        message: 'The run cannot start: Step "write" has tool "summarize", which runs workflow "summarizer", and there is no such workflow (save it first, or change the tool)',
      });
      // Through the API it is a 412, and nothing was stored.
      await expect(createTestCaller(database.db).run.create({ workflowId: saved.workflowId, specification: "x" })).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
      expect(await database.db.run.count()).toBe(0);
    });

    it("refuses it while the named workflow is archived, and starts it once the workflow is back", async () => {
      const saved = await saveWorkflowDefinition(database.db, withSubWorkflowTool("needs-an-archived-one", "archived-summarizer"));
      await saveWorkflowDefinition(database.db, validated(minimalWorkflowDefinition("archived-summarizer")));
      await setWorkflowArchived(database.db, { name: "archived-summarizer", archived: true }, TEST_ADMIN);
      expect(await refusal(enqueueRun(database.db, { workflowVersionId: saved.versionId, specification: "x", contextValues: {}, startedBy: "ada@example.com" }))).toEqual({
        code: "NOT_CONFIGURED",
        message: 'The run cannot start: Step "write" has tool "summarize", which runs workflow "archived-summarizer", which is archived (unarchive it, or change the tool)',
      });
      await setWorkflowArchived(database.db, { name: "archived-summarizer", archived: false }, TEST_ADMIN);
      const { id } = await enqueueRun(database.db, { workflowVersionId: saved.versionId, specification: "x", contextValues: {}, startedBy: "ada@example.com" });
      expect(await database.db.run.findUnique({ where: { id }, select: { status: true } })).toEqual({ status: "queued" });
    });

    it("refuses a run whose sub-workflows' tools lead back to its own workflow, naming the chain", async () => {
      const first = await saveWorkflowDefinition(database.db, withSubWorkflowTool("ping", "pong"));
      await saveWorkflowDefinition(database.db, withSubWorkflowTool("pong", "pang"));
      await saveWorkflowDefinition(database.db, withSubWorkflowTool("pang", "ping"));
      expect(await refusal(enqueueRun(database.db, { workflowVersionId: first.versionId, specification: "x", contextValues: {}, startedBy: "ada@example.com" }))).toEqual({
        code: "NOT_CONFIGURED",
        message: 'The run cannot start: Step "write" has tool "summarize", which runs workflow "pong", whose tools run "pang", whose tools run "ping": sub-runs would start one another without end',
      });
      // A chain that ends (pang's latest version runs nothing) starts.
      await saveWorkflowDefinition(database.db, validated(minimalWorkflowDefinition("pang")));
      await expect(enqueueRun(database.db, { workflowVersionId: first.versionId, specification: "x", contextValues: {}, startedBy: "ada@example.com" })).resolves.toEqual({ id: expect.any(String) });
    });

    it("refuses a run whose sub-workflows start one another without end, though none leads back to its own workflow", async () => {
      const entry = await saveWorkflowDefinition(database.db, withSubWorkflowTool("entry", "left"));
      await saveWorkflowDefinition(database.db, withSubWorkflowTool("left", "right"));
      await saveWorkflowDefinition(database.db, withSubWorkflowTool("right", "left"));
      expect(await refusal(enqueueRun(database.db, { workflowVersionId: entry.versionId, specification: "x", contextValues: {}, startedBy: "ada@example.com" }))).toEqual({
        code: "NOT_CONFIGURED",
        message: 'The run cannot start: Step "write" has tool "summarize", which runs workflow "left", whose tools run "right", whose tools run "left": sub-runs would start one another without end',
      });
    });

    it("refuses a run whose sub-workflow's own tool names a workflow that is missing or archived, naming the chain", async () => {
      const outer = await saveWorkflowDefinition(database.db, withSubWorkflowTool("outer", "middle"));
      await saveWorkflowDefinition(database.db, withSubWorkflowTool("middle", "gone"));
      const start = () => enqueueRun(database.db, { workflowVersionId: outer.versionId, specification: "x", contextValues: {}, startedBy: "ada@example.com" });
      expect(await refusal(start())).toEqual({
        code: "NOT_CONFIGURED",
        message: 'The run cannot start: Step "write" has tool "summarize", which runs workflow "middle", whose tools run "gone", and there is no such workflow (save it first, or change the tool)',
      });
      await saveWorkflowDefinition(database.db, validated(minimalWorkflowDefinition("gone")));
      await setWorkflowArchived(database.db, { name: "gone", archived: true }, TEST_ADMIN);
      expect(await refusal(start())).toEqual({
        code: "NOT_CONFIGURED",
        message: 'The run cannot start: Step "write" has tool "summarize", which runs workflow "middle", whose tools run "gone", which is archived (unarchive it, or change the tool)',
      });
      await setWorkflowArchived(database.db, { name: "gone", archived: false }, TEST_ADMIN);
      await expect(start()).resolves.toEqual({ id: expect.any(String) });
    });

    it("checks the tools of a replayed run too: its agents run on the cassette's turns, and their tools with them", async () => {
      const saved = await saveWorkflowDefinition(database.db, withSubWorkflowTool("replayed-with-tools", "nowhere"));
      const generatorOverride = { kind: "replay", cassette: { steps: { write: ["done"] } } };
      expect(await refusal(enqueueRun(database.db, { workflowVersionId: saved.versionId, specification: "x", contextValues: {}, generatorOverride, startedBy: "ada@example.com" }))).toEqual({
        code: "NOT_CONFIGURED",
        message: 'The run cannot start: Step "write" has tool "summarize", which runs workflow "nowhere", and there is no such workflow (save it first, or change the tool)',
      });
      await saveWorkflowDefinition(database.db, validated(minimalWorkflowDefinition("nowhere")));
      const { id } = await enqueueRun(database.db, { workflowVersionId: saved.versionId, specification: "x", contextValues: {}, generatorOverride, startedBy: "ada@example.com" });
      expect(id).toEqual(expect.any(String));
    });
  });
}

function validated(definition: object): WorkflowDefinition {
  const result = validateWorkflowDocument(JSON.stringify(definition));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.definition;
}
