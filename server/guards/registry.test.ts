import { describe, expect, it } from "vitest";
import { createArtifact, type Guard } from "../engine";
import { createGuard } from "./registry";
import { parseGuardSpec } from "./guard-spec";
import { withGuardLimits } from "./with-guard-limits";

const artifact = (content: string) => createArtifact({ id: "a", content, version: 1, parentId: null });

describe("guard objects", () => {
  it("builds each kind from its plain-object form", () => {
    const specs = [
      { kind: "syntax", language: "py" },
      { kind: "test", language: "js", test: "test('x', () => {})", limits: { wall_clock_ms: 2000 } },
      { kind: "tdd", language: "ts" },
      { kind: "security", language: "python", allow_modules: ["json"], allow_calls: ["open"] },
      { kind: "json_schema", schema: { type: "object" } },
      { kind: "llm_judge", rubric: "Has docstrings", model: "m" },
      { kind: "human", instructions: "Check the licence header" },
      { kind: "all_of", guards: [{ kind: "syntax" }, { kind: "any_of", guards: [{ kind: "human" }] }] },
    ];
    for (const spec of specs) expect(() => createGuard(spec, { language: "python" }), JSON.stringify(spec)).not.toThrow();
  });

  it.each([
    [{ kind: "nope" }, /^guard\.kind: "nope": must be one of syntax, test, tdd/],
    [{ language: "py" }, /^guard\.kind: missing: must be one of/],
    [{ kind: "syntax", language: "cobol" }, /^guard\.language: unknown language "cobol"/],
    [{ kind: "syntax", langauge: "py" }, /^guard: Unrecognized key: "langauge"/],
    [{ kind: "llm_judge" }, /^guard\.rubric: is required/],
    [{ kind: "test", limits: { memory_mb: 0 } }, /^guard\.limits\.memory_mb: must be between 4 and 2032 MB/],
    [{ kind: "all_of", guards: [] }, /^guard\.guards: must list at least one guard/],
    [{ kind: "all_of", guards: [{ kind: "syntax" }, { kind: "json_schema" }] }, /^guard\.guards\.1\.schema: must be a JSON Schema object/],
  ])("names the field of a bad guard object %j", (spec, message) => {
    expect(() => parseGuardSpec(spec)).toThrow(message);
  });

  it("needs a language for language-specific guards, from the guard or its context", () => {
    expect(() => createGuard({ kind: "syntax" })).toThrow(/^guard\.language: required/);
    expect(() => createGuard({ kind: "all_of", guards: [{ kind: "security" }] }, {}, "steps.0.guards.0")).toThrow(/^steps\.0\.guards\.0\.guards\.0\.language: required/);
    expect(() => createGuard({ kind: "syntax" }, { language: "typescript" })).not.toThrow();
  });

  it("records the duration of every verdict", async () => {
    const result = await createGuard({ kind: "syntax", language: "js" }).validate(artifact("let x = 1;"), {});
    expect(result.passed).toBe(true);
    expect(result.durationMs).toEqual(expect.any(Number));
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });
});

describe("withGuardLimits", () => {
  it("answers with a failed verdict when the guard overruns its time limit", async () => {
    const slow: Guard = { validate: () => new Promise(() => {}) };
    const started = Date.now();
    const result = await withGuardLimits("slow", slow, 50).validate(artifact("x"), {});
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ passed: false, fatal: false, feedback: "The slow guard did not answer within 50 ms" });
  });

  it("turns an unexpected exception into a failed verdict", async () => {
    const broken: Guard = { validate: async () => Promise.reject(new Error("boom")) };
    const result = await withGuardLimits("broken", broken, 1_000).validate(artifact("x"), {});
    expect(result).toMatchObject({ passed: false, fatal: false, feedback: "The broken guard could not check the artifact: boom" });
  });
});

describe("human guard", () => {
  it("escalates, awaiting a person", async () => {
    const result = await createGuard({ kind: "human", instructions: "Check the licence header" }).validate(artifact("x"), {});
    expect(result).toMatchObject({ passed: false, fatal: true, awaiting: "human", feedback: "Awaiting a human decision: Check the licence header" });
  });
});
