import { describe, expect, it } from "vitest";
import { createArtifact, isEngineError } from "../../engine";
import { createSyntaxGuard } from "./syntax-guard";

const artifact = (content: string) => createArtifact({ id: "a", content, version: 1, parentId: null });

describe("syntax guard", () => {
  it.each([
    ["javascript", "export function add(a, b) {\n  return a + b;\n}\n"],
    ["typescript", "export function add(a: number, b: number): number {\n  return a + b;\n}\ninterface P { x: number }\n"],
    ["python", "class LRUCache:\n    def get(self, key):\n        return None\n"],
  ] as const)("passes valid %s", async (language, code) => {
    expect(await createSyntaxGuard(language).validate(artifact(code), {})).toMatchObject({ passed: true, fatal: false });
  });

  it("gives each JavaScript diagnostic with line and column", async () => {
    const result = await createSyntaxGuard("javascript").validate(artifact("function f() {\n  return 1 +;\n}\nlet = ;\n"), {});
    expect(result.passed).toBe(false);
    expect(result.fatal).toBe(false);
    expect(result.feedback).toMatch(/syntax errors? in JavaScript/);
    expect(result.feedback).toContain("- line 2, column 13: Expression expected.");
    expect(result.feedback).toMatch(/- line 4, column \d+:/);
  });

  it("rejects TypeScript-only syntax in JavaScript but accepts it in TypeScript", async () => {
    const code = "function f(x: number): number { return x; }\n";
    expect((await createSyntaxGuard("javascript").validate(artifact(code), {})).passed).toBe(false);
    expect((await createSyntaxGuard("typescript").validate(artifact(code), {})).passed).toBe(true);
  });

  it("does not treat type errors as syntax errors", async () => {
    const result = await createSyntaxGuard("typescript").validate(artifact("const x: number = 'text';\n"), {});
    expect(result.passed).toBe(true);
  });

  it("reports a Python syntax error with line, column and the offending line", async () => {
    const result = await createSyntaxGuard("python").validate(artifact("def ok():\n    return 1\n\ndef broken(:\n    pass\n"), {});
    expect(result.passed).toBe(false);
    expect(result.fatal).toBe(false);
    expect(result.feedback).toMatch(/^Syntax error at line 4, column \d+: /);
    expect(result.feedback).toContain("def broken(:");
  });

  it("reports Python indentation errors", async () => {
    const result = await createSyntaxGuard("python").validate(artifact("def f():\nreturn 1\n"), {});
    expect(result.feedback).toMatch(/line 2.*expected an indented block/);
  });

  it("says plainly when python3 is missing, as a configuration error that stops the step (never feedback for the model)", async () => {
    const error = await createSyntaxGuard("python", "/nonexistent/python3").validate(artifact("x = 1\n"), {}).then(
      () => expect.fail("expected a configuration error"),
      (caught: unknown) => caught,
    );
    expect(isEngineError(error, "GUARD_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain("python3 is not installed or not on PATH");
  });
});
