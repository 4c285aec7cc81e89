import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { createArtifact } from "../../engine";
import { createJsonSchemaGuard } from "./json-schema-guard";

const artifact = (content: string) => createArtifact({ id: "a", content, version: 1, parentId: null });
const schema = {
  type: "object",
  required: ["name", "tags"],
  additionalProperties: false,
  properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } }, level: { enum: ["low", "high"] } },
};

describe("json_schema guard", () => {
  it("passes a matching document (the first check of the file: starting the worker thread does not count against timeout_ms)", async () => {
    expect(await createJsonSchemaGuard(schema, { timeoutMs: 100 }).validate(artifact('{"name": "x", "tags": ["a"]}'), {})).toMatchObject({ passed: true });
  });

  it("lists every violation with its path", async () => {
    const result = await createJsonSchemaGuard(schema).validate(artifact('{"name": 3, "tags": ["a", 4], "level": "mid", "extra": true}'), {});
    expect(result.passed).toBe(false);
    expect(result.feedback).toContain("(4 violations)");
    expect(result.feedback).toContain("- /name: must be string");
    expect(result.feedback).toContain("- /tags/1: must be string");
    expect(result.feedback).toContain('- /level: must be equal to one of the allowed values: ["low","high"]');
    expect(result.feedback).toContain('- /: must NOT have additional properties "extra"');
  });

  it("reports a missing required property at the root", async () => {
    const result = await createJsonSchemaGuard(schema).validate(artifact('{"name": "x"}'), {});
    expect(result.feedback).toContain("- /: must have required property 'tags'");
  });

  it("reports invalid JSON with where it broke", async () => {
    const result = await createJsonSchemaGuard(schema).validate(artifact('{\n  "name": "x",\n  "tags": [,]\n}'), {});
    expect(result).toMatchObject({ passed: false, fatal: false });
    expect(result.feedback).toMatch(/^Not valid JSON: .*\(line 3, column \d+\)/);
  });

  it("rejects an invalid schema when the guard is built, naming the field", () => {
    expect(() => createJsonSchemaGuard({ type: "no-such-type" })).toThrow(/guard\.schema: not a valid JSON Schema/);
  });
});

describe("json_schema guard: bounded whatever the schema or the artifact", () => {
  /** Runs `work` while sampling the event loop's delay; returns the result, the time taken and the worst delay. */
  async function measured<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; maxLoopDelayMs: number }> {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const started = performance.now();
    const value = await work();
    const ms = performance.now() - started;
    histogram.disable();
    return { value, ms, maxLoopDelayMs: histogram.max / 1e6 };
  }

  it("answers a catastrophic pattern (^(a+)+$ on 30 a's and '!') at once, with the event loop free", async () => {
    const guard = createJsonSchemaGuard({ type: "string", pattern: "^(a+)+$" }, { timeoutMs: 5_000 });
    const { value, ms, maxLoopDelayMs } = await measured(() => guard.validate(artifact(JSON.stringify(`${"a".repeat(30)}!`)), {}));
    expect(value).toMatchObject({ passed: false });
    expect(value.feedback).toContain('- /: must match pattern "^(a+)+$"');
    // A backtracking engine needs minutes here; RE2 in the worker answers well inside the timeout.
    expect(ms).toBeLessThan(5_000);
    expect(maxLoopDelayMs).toBeLessThan(1_000);
    // And the same pattern still matches what it should.
    expect(await guard.validate(artifact(JSON.stringify("a".repeat(30))), {})).toMatchObject({ passed: true });
  });

  it("stops a check that is slow for another reason (uniqueItems on 20 000 objects) at timeout_ms, the event loop free meanwhile", async () => {
    const guard = createJsonSchemaGuard({ type: "array", uniqueItems: true }, { timeoutMs: 500 });
    const items = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ a: i })));
    const { value, ms, maxLoopDelayMs } = await measured(() => guard.validate(artifact(items), {}));
    expect(value).toMatchObject({ passed: false, fatal: false, feedback: "The json_schema check did not finish within 500 ms and was stopped" });
    expect(ms).toBeLessThan(4_000);
    expect(maxLoopDelayMs).toBeLessThan(1_000);
    // The next check gets a fresh worker and answers normally.
    expect(await guard.validate(artifact("[1, 2, 3]"), {})).toMatchObject({ passed: true });
  });

  it("stops at once when the run's signal aborts, throwing its reason", async () => {
    const guard = createJsonSchemaGuard({ type: "array", uniqueItems: true }, { timeoutMs: 60_000 });
    const items = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ a: i })));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("cancelled")), 200);
    const started = performance.now();
    await expect(guard.validate(artifact(items), {}, { signal: controller.signal })).rejects.toThrow("cancelled");
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it.each([
    [{ type: "string", pattern: "^(?=a)b" }, "guard.schema: /pattern: the pattern is not supported by the linear-time regular-expression engine"],
    [{ properties: { x: { pattern: "(a)\\1" } } }, "guard.schema: /properties/x/pattern: the pattern is not supported"],
    [{ patternProperties: { "(?<=x)y": {} } }, "guard.schema: /patternProperties/(?<=x)y: the pattern is not supported"],
    [{ description: "x".repeat(70_000) }, "guard.schema: the schema is larger than 64 KiB"],
    [JSON.parse(`${'{"items":'.repeat(40)}{}${"}".repeat(40)}`) as Record<string, unknown>, "guard.schema: the schema is nested deeper than 32 levels"],
  ])("refuses the schema %# when the guard is built, naming where", (schema, message) => {
    expect(() => createJsonSchemaGuard(schema)).toThrow(message);
  });

  it("accepts ordinary patterns and patternProperties (benign look-alikes)", async () => {
    const guard = createJsonSchemaGuard({
      type: "object",
      properties: { phone: { type: "string", pattern: "^\\d{3}-\\d{4}$" }, name: { type: "string", pattern: "^[A-Z][a-z]+( [A-Z][a-z]+)*$" } },
      patternProperties: { "^x-": { type: "string" } },
      additionalProperties: false,
    });
    expect(await guard.validate(artifact('{"phone": "555-1234", "name": "Ada Lovelace", "x-note": "ok"}'), {})).toMatchObject({ passed: true });
    const result = await guard.validate(artifact('{"phone": "5551234", "x-note": 3}'), {});
    expect(result.feedback).toContain('- /phone: must match pattern "^\\d{3}-\\d{4}$"');
    expect(result.feedback).toContain("- /x-note: must be string");
  });

  it("refuses an artifact larger than 8 MiB unread", async () => {
    const result = await createJsonSchemaGuard({ type: "string" }).validate(artifact(JSON.stringify("a".repeat(9 * 1024 * 1024))), {});
    expect(result).toMatchObject({ passed: false, feedback: "The artifact is larger than 8 MiB, the most the json_schema guard checks" });
  });
});
