/* eslint-disable @typescript-eslint/no-explicit-any -- the cases mutate a parsed document freely */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem, loadWorkflowDocument, toYaml } from "../../document";
import { validateWorkflowDocument } from "../validate-definition";
import { MAX_TOOLS } from "./tool-schema";

const FIXTURE = readFileSync(join(import.meta.dirname, "fixtures", "agent-tools.yaml"), "utf8");

function fixture(): Record<string, any> {
  const loaded = loadWorkflowDocument(FIXTURE);
  if (!loaded.ok) throw new Error("fixture does not load");
  return structuredClone((loaded.value as { workflow: Record<string, any> }).workflow);
}

/** The fixture mutated, written as JSON (so every problem has a line), as `path (line L, column C): message` lines. */
function problemsAfter(mutate: (workflow: Record<string, any>) => void): string[] {
  const workflow = fixture();
  mutate(workflow);
  const result = validateWorkflowDocument(JSON.stringify({ workflow }, null, 2));
  if (result.ok) expect.fail("expected problems");
  return result.problems.map(formatProblem);
}

function warningsAfter(mutate: (workflow: Record<string, any>) => void): string[] {
  const workflow = fixture();
  mutate(workflow);
  return validateWorkflowDocument(JSON.stringify({ workflow }, null, 2)).warnings.map(formatProblem);
}

const WITH_LINE = / \(line \d+, column \d+\): /;

describe("a workflow's tools: block", () => {
  it("accepts the four kinds, writes every default down, and round-trips through the export", () => {
    const result = validateWorkflowDocument(FIXTURE);
    if (!result.ok) expect.fail(result.problems.map(formatProblem).join("\n"));
    expect(result.warnings).toEqual([]);
    const tools = result.definition.tools!;
    expect(Object.keys(tools)).toEqual(["word_count", "ask_owner", "summarize", "ci_build"]);
    expect(tools.word_count).toMatchObject({ kind: "code", language: "python", timeout: "5s" });
    expect(tools.ask_owner).toMatchObject({ kind: "person", timeout: "30m", input_schema: { required: ["question"] } });
    expect(tools.summarize).toMatchObject({ kind: "workflow", workflow: "summarizer", timeout: "24h", input_schema: { required: ["specification"] } });
    expect(tools.ci_build).toMatchObject({ kind: "external", timeout: "2h", result_schema: { required: ["passed"] } });
    const exported = toYaml({ workflow: result.definition });
    const again = validateWorkflowDocument(exported);
    expect(again).toEqual({ ok: true, definition: result.definition, warnings: [] });
  });

  it("leaves a definition without tools as it was (no tools key)", () => {
    const workflow = fixture();
    delete workflow.tools;
    workflow.steps[0].generator = { kind: "agent" };
    const result = validateWorkflowDocument(JSON.stringify({ workflow }));
    expect(result.ok && "tools" in result.definition).toBe(false);
  });

  it("names the path and line of each problem in a declaration", () => {
    const problems = problemsAfter((w) => {
      w.tools.word_count.code = "";
      w.tools.word_count.language = "cobol";
      w.tools.ask_owner.timeout = "45 minutes";
      w.tools.summarize.timeout = "31d";
      w.tools.ci_build.kind = "webhook";
    });
    expect(problems.every((line) => WITH_LINE.test(line))).toBe(true);
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      "workflow.tools.word_count.code: must not be empty",
      'workflow.tools.word_count.language: unknown language "cobol" (use python or javascript, or py, js)',
      'workflow.tools.ask_owner.timeout: "45 minutes": must be a duration such as 90s, 30m, 24h or 7d',
      "workflow.tools.summarize.timeout: 31d: must be between 1s and 30d",
      'workflow.tools.ci_build.kind: "webhook": must be one of code, person, workflow, external',
    ]);
  });

  it("reports an unknown key and a missing field at their place", () => {
    expect(problemsAfter((w) => {
      w.tools.word_count.timeout_ms = 10;
      delete w.tools.ask_owner.answer_schema;
    }).map((line) => line.replace(WITH_LINE, ": "))).toEqual(["workflow.tools.word_count.timeout_ms: unknown key", "workflow.tools.ask_owner.answer_schema: is required"]);
  });

  it("keeps the answer form to text, numbers, booleans and choices, naming the field at fault", () => {
    const problems = problemsAfter((w) => {
      w.tools.ask_owner.answer_schema.properties.files = { type: "array", items: { type: "string" } };
      w.tools.ask_owner.answer_schema.properties.priority.enum = ["low", 3];
      w.tools.ask_owner.answer_schema.required.push("missing");
      w.tools.ask_owner.answer_schema.$ref = "#/x";
    });
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      "workflow.tools.ask_owner.answer_schema.properties.priority.enum[1]: must be a string like the field",
      "workflow.tools.ask_owner.answer_schema.properties.files.type: must be one of string, number, integer, boolean",
      "workflow.tools.ask_owner.answer_schema.properties.files.items: not supported in an answer form field (use type, enum, title, description, default, minimum, maximum, minLength, maxLength, pattern)",
      'workflow.tools.ask_owner.answer_schema.required[1]: "missing" is not a field of properties',
      "workflow.tools.ask_owner.answer_schema.$ref: not supported in an answer form (use type, properties, required, additionalProperties, title, description)",
    ]);
  });

  it("lets a text field of the answer form carry a pattern, checked on the linear-time engine, and no other field", () => {
    const accepted = fixture();
    accepted.tools.ask_owner.answer_schema.properties.answer.pattern = "^[a-z ]+$";
    expect(validateWorkflowDocument(JSON.stringify({ workflow: accepted })).ok).toBe(true);
    const problems = problemsAfter((w) => {
      w.tools.ask_owner.answer_schema.properties.answer.pattern = "^(a+)\\1$";
      w.tools.ask_owner.answer_schema.properties.approved.pattern = "^yes$";
    });
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      "workflow.tools.ask_owner.answer_schema.properties.approved.pattern: only for string fields",
    ]);
    const compiled = problemsAfter((w) => (w.tools.ask_owner.answer_schema.properties.answer.pattern = "^(a+)\\1$"));
    expect(compiled.map((line) => line.replace(WITH_LINE, ": "))).toEqual([expect.stringMatching(/^workflow\.tools\.ask_owner\.answer_schema: not a valid JSON Schema: error parsing regexp/)]);
    expect(problemsAfter((w) => (w.tools.ask_owner.answer_schema.properties.answer.pattern = "a".repeat(300))).map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      "workflow.tools.ask_owner.answer_schema.properties.answer.pattern: must be a regular expression of at most 256 characters",
    ]);
  });

  it("requires a person's input to carry a text question and a sub-workflow's a text specification", () => {
    const problems = problemsAfter((w) => {
      w.tools.ask_owner.input_schema = { type: "object", properties: { topic: { type: "string" } } };
      w.tools.summarize.input_schema = { type: "object", properties: { specification: { type: "number" } }, required: ["specification"] };
      w.tools.ci_build.input_schema = { type: "string" };
    });
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      'workflow.tools.ask_owner.input_schema: must require a text property "question" (properties.question: { type: string }, listed in required)',
      'workflow.tools.summarize.input_schema: must require a text property "specification" (properties.specification: { type: string }, listed in required)',
      'workflow.tools.ci_build.input_schema.type: must be "object": a tool\'s input is one JSON object',
    ]);
  });
});

describe("hostile or broken tools", () => {
  it("refuses a schema larger than the registry's bound before compiling it", () => {
    const properties = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`field_${i}`, { type: "string", description: "x".repeat(20) }]));
    const problems = problemsAfter((w) => (w.tools.ci_build.input_schema = { type: "object", properties }));
    expect(problems).toEqual([expect.stringMatching(/^workflow\.tools\.ci_build\.input_schema \(line \d+, column \d+\): the schema is larger than 64 KiB$/)]);
  });

  it("refuses a schema nested past the registry's depth bound", () => {
    let schema: Record<string, unknown> = { type: "string" };
    // 40 levels of schema, within the document loader's own nesting bound.
    for (let i = 0; i < 20; i++) schema = { type: "object", properties: { inner: schema } };
    expect(problemsAfter((w) => (w.tools.ci_build.result_schema = schema))).toEqual([
      expect.stringMatching(/^workflow\.tools\.ci_build\.result_schema \(line \d+, column \d+\): the schema is nested deeper than 32 levels$/),
    ]);
  });

  it("refuses a pattern the linear-time engine cannot compile (a backreference), and a remote $ref", () => {
    const problems = problemsAfter((w) => {
      w.tools.ci_build.input_schema.properties.branch.pattern = "^(a+)\\1$";
      w.tools.ci_build.result_schema = { type: "object", properties: { log: { $ref: "https://example.com/schema.json" } } };
    });
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      expect.stringMatching(/^workflow\.tools\.ci_build\.input_schema: not a valid JSON Schema: error parsing regexp: invalid escape sequence: `\\1`$/),
      'workflow.tools.ci_build.result_schema: /properties/log/$ref: only references inside the schema ("#/...") are allowed, never a remote one',
    ]);
  });

  it("refuses uniqueItems over items that are not scalars: a model's argument list would be compared pair by pair", () => {
    const problems = problemsAfter((w) => (w.tools.ci_build.input_schema.properties.targets = { type: "array", items: { type: "object" }, uniqueItems: true }));
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      'workflow.tools.ci_build.input_schema: /properties/targets/uniqueItems: uniqueItems needs "items" with a scalar "type" (string, number, integer, boolean or null); over objects or arrays it compares every pair of items',
    ]);
  });

  it("validates a schema with an $id again and again (the shared compiler keeps nothing between checks)", () => {
    const workflow = fixture();
    workflow.tools.ci_build.result_schema.$id = "https://example.com/build-report";
    const text = JSON.stringify({ workflow });
    expect([1, 2, 3].map(() => validateWorkflowDocument(text).ok)).toEqual([true, true, true]);
  });

  it("refuses code over 64 KiB", () => {
    expect(problemsAfter((w) => (w.tools.word_count.code = `def run(input):\n    return {}\n# ${"x".repeat(70_000)}\n`)).map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      "workflow.tools.word_count.code: is 70033 bytes; the limit is 64 KiB",
    ]);
  });

  it(`refuses more than ${MAX_TOOLS} tools before reading any of them`, () => {
    const problems = problemsAfter((w) => {
      for (let i = 0; i < 40; i++) w.tools[`extra_${i}`] = { kind: "external" };
    });
    expect(problems).toEqual([expect.stringMatching(/^workflow\.tools \(line \d+, column \d+\): declares 44 tools; the limit is 32$/)]);
  });

  it("refuses a workflow tool that names its own workflow", () => {
    expect(problemsAfter((w) => (w.tools.summarize.workflow = "research-with-tools")).map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      'workflow.tools.summarize.workflow: "research-with-tools" is this workflow itself: a tool cannot start a run of its own workflow (it would recurse without end)',
    ]);
  });

  it("refuses names a model cannot call and the agent's own names", () => {
    const problems = problemsAfter((w) => {
      w.tools["ask owner!"] = w.tools.ask_owner;
      w.tools.read_dependency = w.tools.ci_build;
      w.steps[0].generator.tools.push("ask owner!");
    });
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      'workflow.tools["ask owner!"]: "ask owner!" is not a tool name: 1 to 64 of A-Z a-z 0-9 _ - (a model calls a tool by it)',
      'workflow.tools.read_dependency: "read_dependency" is a built-in name of the agent ("read_dependency", "check_draft", "read_specification", "model", "assistant"): choose another',
      "workflow.steps[0].generator.tools[4]: must be 1 to 64 of A-Z a-z 0-9 _ -",
    ]);
  });

  it("names an agent step's unknown tool with the nearest declared name, and a tool listed twice", () => {
    const problems = problemsAfter((w) => (w.steps[0].generator.tools = ["word_count", "ask_ownr", "deploy", "word_count"]));
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      'workflow.steps[0].generator.tools[1]: "ask_ownr" is not a tool declared in tools (did you mean "ask_owner"?)',
      'workflow.steps[0].generator.tools[2]: "deploy" is not a tool declared in tools (declared: "word_count", "ask_owner", "summarize", "ci_build")',
      'workflow.steps[0].generator.tools[3]: "word_count" is listed twice',
    ]);
  });

  it("says a step cannot list a built-in tool, and that a workflow without tools declares none", () => {
    const problems = problemsAfter((w) => {
      delete w.tools;
      w.steps[0].generator.tools = ["check_draft", "ask_owner"];
    });
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      'workflow.steps[0].generator.tools[0]: "check_draft" is a built-in tool, which every agent has: list only tools declared in tools',
      'workflow.steps[0].generator.tools[1]: "ask_owner" is not a tool declared in tools: this workflow declares none',
    ]);
  });

  it("does not call a tool unknown when the tools block itself is misspelt", () => {
    const problems = problemsAfter((w) => {
      w.toolz = w.tools;
      delete w.tools;
    });
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual(["workflow.toolz: unknown key"]);
  });

  it("still checks the steps' tools when a declaration is broken, and does not call the broken one unknown", () => {
    const problems = problemsAfter((w) => {
      w.tools.word_count.code = 42;
      w.steps[0].generator.tools.push("nope");
    });
    expect(problems.map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      "workflow.tools.word_count.code: Invalid input: expected string, received number",
      'workflow.steps[0].generator.tools[4]: "nope" is not a tool declared in tools (declared: "word_count", "ask_owner", "summarize", "ci_build")',
    ]);
  });

  it("warns about a declared tool no step lists", () => {
    expect(warningsAfter((w) => (w.steps[0].generator.tools = ["word_count", "ask_owner", "summarize"]))).toEqual([
      expect.stringMatching(/^workflow\.tools\.ci_build \(line \d+, column \d+\): declared, but no agent step lists it in generator\.tools: no model can call it$/),
    ]);
  });

  it("refuses tools on a generator that is not an agent", () => {
    expect(problemsAfter((w) => (w.steps[0].generator = { kind: "llm", tools: ["word_count"] })).map((line) => line.replace(WITH_LINE, ": "))).toEqual([
      'workflow.steps[0].generator: Unrecognized key: "tools"',
    ]);
  });
});

describe("tools in an agent.yaml document", () => {
  it("keeps the agent.yaml's own top-level tools key ignored with a warning, and reads the workflow's block", () => {
    const text = `tools: [browser]\n${FIXTURE}`;
    const result = validateWorkflowDocument(text);
    if (!result.ok) expect.fail(result.problems.map(formatProblem).join("\n"));
    expect(result.warnings.map(formatProblem)).toEqual(["tools (line 1, column 8): agent.yaml key that Dualstate does not use: kept in the file, ignored"]);
    expect(Object.keys(result.definition.tools ?? {})).toEqual(["word_count", "ask_owner", "summarize", "ci_build"]);
  });
});
