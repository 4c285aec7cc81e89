import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCaller, TEST_DATABASES } from "@/server/api/testing/test-caller";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";

// A run of a workflow designed from nothing, replayed from a cassette the user provides.
for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`run.create with an uploaded cassette on ${provider}`, () => {
    let database: TestDatabase;
    let caller: ReturnType<typeof createTestCaller>;
    let workflowId: string;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      caller = createTestCaller(database.db);
      workflowId = (await caller.workflow.create({ definition: minimalWorkflowDefinition("designed-here") })).id;
    });
    afterAll(() => database?.dispose());

    const create = (cassette: string, generator?: "configured" | "replay") => caller.run.create({ workflowId, specification: "x", cassette, ...(generator ? { generator } : {}) });

    it("carries the uploaded cassette on the run for the worker to replay", async () => {
      const { id } = await create(JSON.stringify({ format: "dualstate-cassette/1", steps: { write: ["print(1)", { content: "print(2)", delay_ms: 10 }] } }), "replay");
      const run = await database.db.run.findUniqueOrThrow({ where: { id }, select: { generatorOverride: true } });
      expect(run.generatorOverride).toEqual({ kind: "replay", cassette: { format: "dualstate-cassette/1", steps: { write: ["print(1)", { content: "print(2)", delay_ms: 10 }] } } });
    });

    it("names the line and column of JSON that does not parse", async () => {
      await expect(create('{\n  "steps": {\n    "write": ["a",]\n  }\n}')).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/^cassette: the cassette file: not valid JSON at line 3, column 19/) });
    });

    it("names the field of a cassette that is not in the format", async () => {
      await expect(create(JSON.stringify({ steps: { write: [{ content: "a", delay: 5 }] } }))).rejects.toMatchObject({ message: expect.stringContaining("steps.write[0].delay: unknown field") });
      await expect(create(JSON.stringify({ steps: { write: [] } }))).rejects.toMatchObject({ message: expect.stringContaining("steps.write: must list at least one attempt") });
    });

    it("names a step the workflow does not have, and lists the ones it has", async () => {
      await expect(create(JSON.stringify({ steps: { write: ["a"], wrtie: ["b"] } }))).rejects.toMatchObject({
        message: 'cassette: steps.wrtie: workflow "designed-here" has no step "wrtie"\n(its steps: write)',
      });
    });

    it("accepts the steps of the workflows its tools start (their sub-runs replay from the same cassette), and still names a typo", async () => {
      const sub = minimalWorkflowDefinition("docstring-writer");
      await caller.workflow.create({ definition: { ...sub, steps: [{ ...sub.steps[0], name: "write_docstring" }] } });
      const base = minimalWorkflowDefinition("calls-a-sub-workflow");
      const parent = {
        ...base,
        tools: { docstring: { kind: "workflow", workflow: "docstring-writer", description: "Write a docstring with another workflow." } },
        steps: [{ ...base.steps[0], generator: { kind: "agent", tools: ["docstring"] } }],
      };
      const parentId = (await caller.workflow.create({ definition: parent })).id;
      const createFor = (cassette: object) => caller.run.create({ workflowId: parentId, specification: "x", generator: "replay", cassette: JSON.stringify(cassette) });
      await expect(createFor({ steps: { write: [{ tool_calls: [{ name: "docstring", arguments: { specification: "f" } }] }, "done"], write_docstring: ['"""Doc."""'] } })).resolves.toMatchObject({ id: expect.any(String) });
      await expect(createFor({ steps: { write: ["done"] }, reports: { docstring: [{ status: "succeeded" }] } })).rejects.toMatchObject({
        message: expect.stringContaining('cassette: steps[0].generator: the cassette\'s reports.docstring: "docstring" is a workflow tool, which always starts its sub-run'),
      });
      await expect(createFor({ steps: { write: ["done"], write_docstrin: ["x"] } })).rejects.toMatchObject({
        message: 'cassette: steps.write_docstrin: workflow "calls-a-sub-workflow" has no step "write_docstrin"\n(its steps: write; its sub-workflows\' steps: write_docstring)',
      });
    });

    it("refuses a cassette with the configured generator", async () => {
      await expect(create(JSON.stringify({ steps: { write: ["a"] } }), "configured")).rejects.toMatchObject({ message: expect.stringContaining("cassette: replays with the replay generator only") });
    });
  });
}
