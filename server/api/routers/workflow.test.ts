import { TRPCError } from "@trpc/server";
import { toYaml } from "@/server/workflows/document";
import { seed004AgentYaml } from "@/server/workflows/definition/seed-format/testing/seed-examples";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { RELIES_ON_A_DEFAULT } from "@/server/workflows/fixtures/relies-on-a-default";
import { WARNINGS_HEADING } from "@/server/services/workflows/save-workflow-document";
import { createFailingDb, createTestCaller, TEST_DATABASES } from "../testing/test-caller";

/** A valid YAML workflow document; `task` varies the one step's prompt to make a new version. */
function parserYaml(task = "Write a parser for {specification}") {
  return [
    "name: Parser",
    "description: Builds a parser",
    "state_machine:",
    "  states: [writing, done]",
    "  initial_state: writing",
    "  final_states: [done]",
    "steps:",
    "  - name: write",
    "    in_state: writing",
    `    prompt: "${task}"`,
    "    transition_to: done",
    "",
  ].join("\n");
}

async function failure(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof TRPCError)) throw new Error(`expected a TRPCError, got ${String(error)}`);
  return error;
}

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`workflow router on ${provider}`, () => {
    let database: TestDatabase;
    let caller: ReturnType<typeof createTestCaller>;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      caller = createTestCaller(database.db);
    });
    afterAll(() => database?.dispose());

    it("saves a valid YAML document as version 1 under the document's name and lists it", async () => {
      const created = await caller.workflow.create({ document: parserYaml() });

      expect(created).toEqual({ id: expect.any(String), name: "Parser", version: 1, created: true, warnings: [] });
      const workflows = await caller.workflow.list();
      expect(workflows).toContainEqual(
        expect.objectContaining({ id: created.id, name: "Parser", description: "Builds a parser", latestVersion: 1, runCount: 0, updatedAt: expect.any(Date) }),
      );
      const detail = await caller.workflow.get({ name: "Parser" });
      expect(detail.definition).toMatchObject({ name: "Parser", steps: [{ name: "write", type: "llm", prompt: { task: "Write a parser for {specification}" } }] });
      expect(detail.problems).toEqual([]);
    });

    it("keeps version 1 when the same definition is saved again, as text or as an object", async () => {
      const again = await caller.workflow.save({ document: parserYaml() });
      expect(again).toMatchObject({ name: "Parser", version: 1, created: false });

      const { definition } = await caller.workflow.get({ name: "Parser" });
      const asObject = await caller.workflow.save({ definition: JSON.parse(JSON.stringify(definition)) as Record<string, never> });
      expect(asObject).toMatchObject({ id: again.id, version: 1, created: false });
      expect(await database.db.workflowVersion.count({ where: { workflowId: again.id } })).toBe(1);
    });

    it("stores a changed definition as version 2 and keeps version 1 readable", async () => {
      const changed = await caller.workflow.save({ name: "Parser", document: parserYaml("Write a recursive-descent parser for {specification}") });
      expect(changed).toMatchObject({ name: "Parser", version: 2, created: true });

      const detail = await caller.workflow.get({ id: changed.id });
      expect(detail.definition?.steps[0]?.prompt?.task).toBe("Write a recursive-descent parser for {specification}");
      expect(detail.versions).toEqual([
        { version: 2, createdAt: expect.any(Date), runCount: 0 },
        { version: 1, createdAt: expect.any(Date), runCount: 0 },
      ]);
      const first = await caller.workflow.export({ name: "Parser", version: 1 });
      expect(first).toContain("task: Write a parser for {specification}");
      expect(first).not.toContain("recursive-descent");
      expect(await caller.workflow.export({ name: "Parser" })).toContain("recursive-descent");
    });

    it("refuses invalid YAML with the line and column, and stores nothing", async () => {
      const before = await database.db.workflowVersion.count();
      const broken = "name: Broken\nstate_machine:\n  states: [a, b\nsteps: []\n";

      const error = await failure(caller.workflow.create({ document: broken }));

      expect(error.code).toBe("BAD_REQUEST");
      expect(error.message).toMatch(/^document \(line \d+, column \d+\): /);
      expect(await database.db.workflowVersion.count()).toBe(before);
      expect((await caller.workflow.list()).map((workflow) => workflow.name)).not.toContain("Broken");
    });

    it("lists every problem of an invalid definition as path: message lines, and stores nothing", async () => {
      const definition = minimalWorkflowDefinition("Invalid");
      const invalid = { ...definition, state_machine: { ...definition.state_machine, initial_state: "nowhere" }, steps: [{ ...definition.steps[0], max_retries: 99 }] };

      const error = await failure(caller.workflow.save({ definition: invalid }));

      expect(error.code).toBe("BAD_REQUEST");
      expect(error.message.split("\n")).toEqual(['state_machine.initial_state: "nowhere" is not a declared state (state_machine.states)', "steps[0].max_retries: must be between 0 and 20"]);
      await expect(caller.workflow.get({ name: "Invalid" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("saves a document that relies on a default, answering its warnings; check gives them apart from problems", async () => {
      const check = await caller.workflow.check({ document: RELIES_ON_A_DEFAULT.text });
      expect(check).toMatchObject({ ok: true, problems: [] });
      expect(check.warnings.some((warning) => RELIES_ON_A_DEFAULT.warning.test(`${warning.path}: ${warning.message}`))).toBe(true);

      const saved = await caller.workflow.save({ document: RELIES_ON_A_DEFAULT.text });
      expect(saved).toMatchObject({ name: RELIES_ON_A_DEFAULT.name, version: 1, created: true });
      // The same warnings the check gave, with their places in the text.
      expect(saved.warnings).toEqual(check.warnings);
      expect((await caller.workflow.get({ name: RELIES_ON_A_DEFAULT.name })).problems).toEqual([]);
      // Saved again unchanged: nothing new is stored, and the warnings still come back.
      expect(await caller.workflow.save({ document: RELIES_ON_A_DEFAULT.text })).toMatchObject({ version: 1, created: false, warnings: check.warnings });
    });

    it("saves 004's agent.yaml, which names no workflow, under the name the editor gives; refuses it without one", async () => {
      const agentYaml = toYaml(seed004AgentYaml());
      const check = await caller.workflow.check({ document: agentYaml, name: "scrip-agent" });
      expect(check).toMatchObject({ ok: true, problems: [] });
      expect(check.warnings.map((warning) => warning.message)).toContain('no name: the workflow is called "scrip-agent" (given where the document was loaded)');
      expect(await caller.workflow.save({ document: agentYaml, fallbackName: "scrip-agent" })).toMatchObject({ name: "scrip-agent", version: 1, created: true });
      // The stored version is the canonical form: exported, it names itself and reads back as the same version.
      const exported = await caller.workflow.export({ name: "scrip-agent" });
      const again = await caller.workflow.save({ document: exported });
      expect(again).toMatchObject({ name: "scrip-agent", version: 1, created: false });
      // Nothing is inferred any more; only the machine's own dead ends remain (reflecting and shipping, as 004 writes it).
      expect(again.warnings.map((warning) => warning.message)).toEqual([
        'state "reflecting" is unreachable from the initial state "observing"',
        'state "shipping" is unreachable from the initial state "observing"',
      ]);
      const nameless = await failure(caller.workflow.save({ document: agentYaml }));
      expect(nameless.message).toMatch(/^workflow\.name \(line \d+, column \d+\): is required/);
    });

    it("refuses an invalid document that also has warnings: errors first, the warnings after under their own heading", async () => {
      const before = await database.db.workflowVersion.count();
      const document = RELIES_ON_A_DEFAULT.text.replace("name: inferred-final-states", "name: warned-and-broken").replace("in_state: writing", "in_state: nowhere");

      const error = await failure(caller.workflow.save({ document }));

      expect(error.code).toBe("BAD_REQUEST");
      const [errors = "", warnings] = error.message.split(`\n\n${WARNINGS_HEADING}\n`);
      expect(errors.split("\n")).toEqual([expect.stringMatching(/^workflow\.steps\[0\]\.in_state \(line \d+, column \d+\): "nowhere" is not a declared state/)]);
      expect(errors).not.toContain("warning");
      // The validator may or may not report warnings beside errors; when it does, they are labelled.
      for (const line of warnings?.split("\n") ?? []) expect(line).toMatch(/^warning: /);
      expect(await database.db.workflowVersion.count()).toBe(before);
    });

    it("refuses a name that differs from the document's, naming both", async () => {
      const error = await failure(caller.workflow.save({ name: "Lexer", document: parserYaml() }));
      expect(error).toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/^name: "Lexer" differs from the document's name "Parser"/) });
    });

    it("needs exactly one of document and definition, naming the field", async () => {
      // The caller sees zod's issues as JSON; over HTTP the error formatter makes them "field: message" lines.
      const neither = await failure(caller.workflow.save({}));
      expect(neither.code).toBe("BAD_REQUEST");
      expect(JSON.parse(neither.message)).toMatchObject([{ path: ["document"], message: "give the workflow as document (YAML or JSON text) or as definition (an object)" }]);
      const both = await failure(caller.workflow.save({ document: parserYaml(), definition: minimalWorkflowDefinition("Parser") }));
      expect(both.code).toBe("BAD_REQUEST");
      expect(JSON.parse(both.message)).toMatchObject([{ path: ["definition"], message: "give document or definition, not both" }]);
    });

    it("rejects a definition that is not a JSON object with BAD_REQUEST naming the field", async () => {
      const error = await failure(caller.workflow.create({ definition: [] as unknown as Record<string, never> }));
      expect(error).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("definition") });
    });

    it("answers an unknown workflow with NOT_FOUND naming it, by name, id or on export", async () => {
      await expect(caller.workflow.get({ name: "no-such-workflow" })).rejects.toMatchObject({ code: "NOT_FOUND", message: 'Workflow "no-such-workflow" was not found' });
      await expect(caller.workflow.get({ id: "no-such-id" })).rejects.toMatchObject({ code: "NOT_FOUND", message: 'Workflow "no-such-id" was not found' });
      await expect(caller.workflow.export({ name: "no-such-workflow" })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining('"no-such-workflow"') });
      await expect(caller.workflow.export({ name: "Parser", version: 9 })).rejects.toMatchObject({ code: "NOT_FOUND", message: 'Version 9 of workflow "Parser" was not found' });
    });

    it("counts runs per version and across the workflow's versions", async () => {
      const { id } = await caller.workflow.create({ definition: minimalWorkflowDefinition("Counted") });
      await caller.run.create({ workflowId: id, specification: "one" });
      await caller.run.create({ workflowId: id, specification: "two" });

      const workflows = await caller.workflow.list();
      expect(workflows.find((workflow) => workflow.id === id)?.runCount).toBe(2);
      expect((await caller.workflow.get({ id })).versions).toEqual([{ version: 1, createdAt: expect.any(Date), runCount: 2 }]);
    });

    it("reads a version stored before definitions were validated as problems instead of failing", async () => {
      const id = "legacy-workflow";
      await database.db.workflow.create({ data: { id, name: "Legacy", versions: { create: { id: "legacy-v1", version: 1, definition: { steps: [] } } } } });

      const detail = await caller.workflow.get({ name: "Legacy" });

      expect(detail.definition).toBeNull();
      expect(detail.problems).toContain("name: is required");
    });
  });
}

describe("workflow router: new workflows from the bundled examples", () => {
  const caller = createTestCaller(createFailingDb("no database needed: examples are files"));

  it("lists the bundled examples with their descriptions", async () => {
    const examples = await caller.workflow.examples();
    expect(examples.map((example) => example.name)).toEqual(expect.arrayContaining(["tdd-lru-cache", "prime-validator", "sandbox-escalation", "agent-loop"]));
    expect(examples.find((example) => example.name === "tdd-lru-cache")?.description).toMatch(/Tests first/);
  });

  it("copies an example under the new name, keeping its comments, as a document that checks valid", async () => {
    const document = await caller.workflow.fromExample({ example: "tdd-lru-cache", name: "my-cache" });
    expect(document).toMatch(/^# Started from the example tdd-lru-cache\.yaml\./);
    expect(document).toMatch(/name: my-cache/);
    expect(document).not.toMatch(/name: tdd-lru-cache/);
    expect((await caller.workflow.check({ document })).problems).toEqual([]);
  });

  it("names the example that does not exist, and a bad name, as input errors", async () => {
    await expect(caller.workflow.fromExample({ example: "no-such-example", name: "x" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining('no bundled example is named "no-such-example"') });
    await expect(caller.workflow.fromExample({ example: "tdd-lru-cache", name: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("workflow router with a failing database", () => {
  it("reports an unexpected error as INTERNAL_SERVER_ERROR without its message", async () => {
    const caller = createTestCaller(createFailingDb("SQLITE_CORRUPT at /secret/path/dualstate.db"));

    const error = await caller.workflow.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: "INTERNAL_SERVER_ERROR", message: "Internal server error" });
    expect(String((error as Error).message)).not.toContain("secret");
  });
});
