import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { attemptContent, attemptDelayMs, CassetteError, parseCassette, withoutDelays } from "./cassette";
import { readCassetteFile } from "./cassette-file";

const folder = mkdtempSync(join(tmpdir(), "dualstate-cassette-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

function parseError(json: unknown): CassetteError {
  try {
    parseCassette(json, "demo.json");
  } catch (error) {
    expect(error).toBeInstanceOf(CassetteError);
    return error as CassetteError;
  }
  throw new Error("expected parseCassette to throw");
}

describe("parseCassette", () => {
  it("accepts text and object attempts, the format marker and run metadata", () => {
    const cassette = parseCassette({
      format: "dualstate-cassette/1",
      run: { workflow: "lru", specification: "Implement LRU Cache", recordedAt: "2025-01-01T00:00:00.000Z", note: "kept" },
      steps: { implement: ["class A: ...", { content: "class B: ...", delay_ms: 250, tool_calls: [{ name: "read_dependency", arguments: {} }] }] },
    });
    const [first, second] = cassette.steps.implement!;
    expect([attemptContent(first!), attemptDelayMs(first!)]).toEqual(["class A: ...", 0]);
    expect([attemptContent(second!), attemptDelayMs(second!)]).toEqual(["class B: ...", 250]);
    expect(cassette.run).toMatchObject({ workflow: "lru", note: "kept" });
  });

  it("names the path of each problem", () => {
    const error = parseError({ steps: { implement: ["a", "b", { content: "c", delay_ms: -5 }] } });
    expect(error.code).toBe("INVALID_CASSETTE");
    expect(error.message).toBe("demo.json: invalid cassette:\nsteps.implement[2].delay_ms: must be a non-negative number");
  });

  it.each([
    [{ steps: { implement: [{ delay_ms: 1 }] } }, "steps.implement[0].content: is required (or tool_calls, for an agent's turn that calls tools)"],
    [{ steps: { implement: [{ tool_calls: [] }] } }, "steps.implement[0].tool_calls: must list at least one call (an entry without tool_calls is a final answer)"],
    [{ steps: { implement: [{ tool_calls: [{ name: "a b" }] }] } }, "steps.implement[0].tool_calls[0].name: must be 1 to 64 of A-Z a-z 0-9 _ -"],
    [{ steps: { implement: [{ tool_calls: [{ arguments: {} }] }] } }, "steps.implement[0].tool_calls[0].name: is required"],
    [{ steps: { implement: [{ tool_calls: [{ name: "a", arguments: "{" }] }] } }, "steps.implement[0].tool_calls[0].arguments: must be JSON text of an object (not valid JSON)"],
    [{ steps: { implement: [{ tool_calls: [{ name: "a", arguments: "[1]" }] }] } }, "steps.implement[0].tool_calls[0].arguments: must be JSON text of an object"],
    [{ steps: { implement: [{ tool_calls: [{ name: "a", arguments: 3 }] }] } }, "steps.implement[0].tool_calls[0].arguments: must be an object or JSON text of one"],
    [{ steps: { implement: [{ tool_calls: [{ name: "a", args: {} }] }] } }, "steps.implement[0].tool_calls[0].args: unknown field"],
    [{ steps: { implement: [{ tool_calls: ["a"] }] } }, "steps.implement[0].tool_calls[0]: must be an object with name and arguments"],
    [{ steps: { implement: [{ tool_calls: Array.from({ length: 17 }, () => ({ name: "a" })) }] } }, "steps.implement[0].tool_calls: must list at most 16 calls"],
    [{ steps: {}, reports: [] }, "reports: must be an object mapping tool names to results"],
    [{ steps: {}, reports: { ask: [] } }, "reports.ask: must list at least one result"],
    [{ steps: {}, reports: { ask: ["yes"] } }, "reports.ask[0]: must be a JSON object (the tool's result)"],
    [{ steps: {}, reports: { "ask owner": [{}] } }, 'reports["ask owner"]: is not a tool name: must be 1 to 64 of A-Z a-z 0-9 _ -'],
    [{ steps: { implement: [42] } }, "steps.implement[0]: must be text or an object with content"],
    [{ steps: { implement: [{ content: "x", delay: 5 }] } }, "steps.implement[0].delay: unknown field"],
    [{ steps: { implement: [{ content: "x", delay_ms: "5" }] } }, "steps.implement[0].delay_ms: must be a non-negative number"],
    [{ steps: { implement: [{ content: "x", delay_ms: 60_001 }] } }, "steps.implement[0].delay_ms: must be at most 60000 (60 s)"],
    [{ steps: { implement: [{ content: "x", delay_ms: 1e15 }] } }, "steps.implement[0].delay_ms: must be at most 60000 (60 s)"],
    [{ steps: { implement: [{ content: "x", tool_calls: {} }] } }, "steps.implement[0].tool_calls: must be a list"],
    [{ steps: { "write tests": [] } }, 'steps["write tests"]: must list at least one attempt'],
    [{ steps: { implement: "x" } }, "steps.implement: must be a list of attempts"],
    [{ steps: [] }, "steps: must be an object mapping step names to attempts"],
    [{}, "steps: is required"],
    [{ steps: {}, extra: 1 }, "extra: unknown field"],
    [{ format: "other/2", steps: {} }, 'format: must be "dualstate-cassette/1"'],
    [null, "cassette: must be an object with steps"],
  ])("%j → %s", (json, line) => {
    expect(parseError(json).message.split("\n")).toContain(line);
  });
});

describe("agent turns and reports", () => {
  it("bounds a recorded report like a reported result: 256 KiB of JSON, 64 levels deep", () => {
    const large = parseError({ steps: {}, reports: { ask: [{ answer: "x".repeat(300 * 1024) }] } });
    expect(large.message.split("\n")).toContain(`reports.ask[0]: is ${300 * 1024 + 13} bytes of JSON, more than the 256 KiB a result may have`);
    const deep = parseError({ steps: {}, reports: { ask: [JSON.parse(`${'{"a":'.repeat(70)}1${"}".repeat(70)}`)] } });
    expect(deep.message.split("\n")).toContain("reports.ask[0]: nests deeper than 64 levels");
  });

  it("reads a turn's calls with their arguments as JSON text, and a tool's report per attempt, the last repeating", async () => {
    const { attemptToolCalls, recordedReport } = await import("./cassette");
    const cassette = parseCassette({
      steps: { write: [{ tool_calls: [{ name: "count", arguments: { text: "a b" } }, { name: "ask", arguments: '{"question":"ok?"}' }, { name: "read_specification" }] }, "done"] },
      reports: { ask: [{ answer: "yes" }, { answer: "no" }] },
    });
    expect(attemptToolCalls(cassette.steps.write![0]!)).toEqual([
      { name: "count", arguments: '{"text":"a b"}' },
      { name: "ask", arguments: '{"question":"ok?"}' },
      { name: "read_specification", arguments: "{}" },
    ]);
    expect(attemptToolCalls(cassette.steps.write![1]!)).toEqual([]);
    expect(attemptContent(cassette.steps.write![0]!)).toBe("");
    expect([1, 2, 3].map((attempt) => recordedReport(cassette, "ask", attempt))).toEqual([{ answer: "yes" }, { answer: "no" }, { answer: "no" }]);
    expect(recordedReport(cassette, "other", 1)).toBeUndefined();
    expect(recordedReport(cassette, "constructor", 1)).toBeUndefined();
  });
});

describe("withoutDelays", () => {
  it("keeps every answer and drops every pause", () => {
    const cassette = parseCassette({ run: { workflow: "w" }, steps: { a: ["one", { content: "two", delay_ms: 3000, tool_calls: [{ name: "read" }] }] } });
    const fast = withoutDelays(cassette);
    expect(fast).toEqual({ run: { workflow: "w" }, steps: { a: ["one", { content: "two", tool_calls: [{ name: "read" }] }] } });
    expect(fast.steps.a!.map(attemptDelayMs)).toEqual([0, 0]);
    expect(attemptDelayMs(cassette.steps.a![1]!)).toBe(3000);
  });
});

describe("readCassetteFile", () => {
  it("reads and validates a file", () => {
    expect(readCassetteFile(file("ok.json", '{"steps": {"implement": ["x"]}}')).steps).toEqual({ implement: ["x"] });
  });

  it("reports a missing file with its path", () => {
    const path = join(folder, "missing.json");
    expect(() => readCassetteFile(path)).toThrow(expect.objectContaining({ code: "CASSETTE_NOT_FOUND", message: `cassette file ${path} was not found` }));
  });

  it("reports invalid JSON with the line and column", () => {
    const path = file("broken.json", '{\n  "steps": {\n    "implement": ["x",]\n  }\n}\n');
    expect(() => readCassetteFile(path)).toThrow(expect.objectContaining({ code: "INVALID_CASSETTE", message: expect.stringMatching(/broken\.json: not valid JSON at line 3, column 23$/) }));
  });

  it("prefixes shape errors with the file's path", () => {
    const path = file("shape.json", '{"steps": {"implement": [{"content": 1}]}}');
    expect(() => readCassetteFile(path)).toThrow(`cassette file ${path}: invalid cassette:\nsteps.implement[0].content: must be text`);
  });
});
