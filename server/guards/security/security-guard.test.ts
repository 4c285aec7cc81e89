import { describe, expect, it } from "vitest";
import { createArtifact, isEngineError } from "../../engine";
import { BENIGN_LOOKALIKES, HOSTILE_ARTIFACTS, HOSTILE_REVIEW_ARTIFACTS, type HostileArtifact } from "./fixtures/hostile-artifacts";
import { createSecurityGuard, type SecurityGuardOptions } from "./security-guard";

const artifact = (content: string) => createArtifact({ id: "a", content, version: 1, parentId: null });
const validate = (options: SecurityGuardOptions, code: string) => createSecurityGuard(options).validate(artifact(code), {});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The feedback line for the construct, which must also give the expected line number. */
function lineFor(feedback: string, fixture: HostileArtifact): string | undefined {
  const construct = typeof fixture.expectConstruct === "string" ? new RegExp(`^Security: ${escape(fixture.expectConstruct)} forbidden `) : fixture.expectConstruct;
  const where = new RegExp(`\\(lines? (\\d+, )*${fixture.line}(, \\d+)*\\)$`);
  return feedback.split("\n").find((line) => construct.test(line) && where.test(line));
}

describe("security guard fixtures", () => {
  it("has enough hostile artifacts and look-alikes in every language", () => {
    const count = (list: readonly { language: string }[], python: boolean) => list.filter((item) => (item.language === "python") === python).length;
    expect(HOSTILE_ARTIFACTS.length).toBeGreaterThanOrEqual(40);
    expect(count(HOSTILE_ARTIFACTS, false)).toBeGreaterThanOrEqual(18);
    expect(count(HOSTILE_ARTIFACTS, true)).toBeGreaterThanOrEqual(18);
    expect(BENIGN_LOOKALIKES.length).toBeGreaterThanOrEqual(20);
    expect(count(BENIGN_LOOKALIKES, false)).toBeGreaterThanOrEqual(10);
    expect(count(BENIGN_LOOKALIKES, true)).toBeGreaterThanOrEqual(10);
    expect(count(HOSTILE_REVIEW_ARTIFACTS, false)).toBeGreaterThanOrEqual(20);
    expect(count(HOSTILE_REVIEW_ARTIFACTS, true)).toBeGreaterThanOrEqual(20);
  });

  it.each([...HOSTILE_ARTIFACTS, ...HOSTILE_REVIEW_ARTIFACTS].map((fixture) => [`${fixture.language}: ${fixture.name}`, fixture] as const))("rejects %s as fatal", async (_name, fixture) => {
    const result = await validate({ language: fixture.language }, fixture.code);
    expect(result).toMatchObject({ passed: false, fatal: true });
    expect(lineFor(result.feedback, fixture), result.feedback).toBeDefined();
  });

  it.each(BENIGN_LOOKALIKES.map((fixture) => [`${fixture.language}: ${fixture.name}`, fixture] as const))("passes %s", async (_name, fixture) => {
    const result = await validate({ language: fixture.language }, fixture.code);
    expect(result, result.feedback).toMatchObject({ passed: true, fatal: false, feedback: "" });
  });
});

describe("security guard verdicts", () => {
  it("gives 000's feedback for import os; os.system(...)", async () => {
    const result = await validate({ language: "python" }, "import os\n\nos.system('ls')\n");
    expect(result).toEqual({ passed: false, fatal: true, feedback: "Security: os.system forbidden (line 3)" });
  });

  it("puts one construct per line, most severe first, repeated lines together", async () => {
    const code = ["const home = process.env.HOME;", "eval(home);", "eval(home + '!');", "fetch('https://x.example');"].join("\n");
    const result = await validate({ language: "javascript" }, code);
    expect(result.feedback.split("\n")).toEqual(["Security: eval forbidden (lines 2, 3)", "Security: fetch forbidden (line 4)", "Security: process.env forbidden (line 1)"]);
  });

  it("caps the feedback at ten constructs and says how many more there are", async () => {
    const code = Array.from({ length: 14 }, (_, index) => `import os\nos.system('a')\nos.remove('x${index}')\n`).join("")
      + ["os.popen('x')", "os.fork()", "os.getenv('A')", "os.putenv('A', 'b')", "os.kill(1, 9)", "os.abort()", "os._exit(1)", "os.rmdir('d')", "os.mkdir('d')", "os.chmod('d', 7)", "os.unlink('f')"].join("\n");
    const result = await validate({ language: "python" }, code);
    const lines = result.feedback.split("\n");
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toMatch(/^Security: and \d+ more forbidden constructs?$/);
  });

  it.each([
    ["javascript", "function f() {\n  return 1 +;\n}\n", 2],
    ["typescript", "const x: number = ;\n", 1],
    ["python", "def ok():\n    return 1\n\ndef broken(:\n    pass\n", 4],
  ] as const)("fails unparseable %s without escalating", async (language, code, line) => {
    const result = await validate({ language }, code);
    expect(result).toMatchObject({ passed: false, fatal: false });
    expect(result.feedback).toMatch(new RegExp(`^Security: could not parse the code \\(line ${line}: .+\\)$`));
  });

  it("does not pass TypeScript syntax in JavaScript", async () => {
    const result = await validate({ language: "javascript" }, "function f(x: number): number { return x; }\n");
    expect(result).toMatchObject({ passed: false, fatal: false });
  });

  it("says plainly when python3 is missing, as a configuration error that stops the step (never feedback for the model)", async () => {
    const error = await validate({ language: "python", pythonExecutable: "/nonexistent/python3" }, "x = 1\n").then(
      () => expect.fail("expected a configuration error"),
      (caught: unknown) => caught,
    );
    expect(isEngineError(error, "GUARD_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain("python3 is not installed or not on PATH");
  });

  it.each([
    ["javascript", "\u0000\u0001 \uffff"],
    ["javascript", `${"(".repeat(5000)}1${")".repeat(5000)}`],
    ["python", "x = 1\u0000\n"],
    ["python", `x = ${"(".repeat(500)}1${")".repeat(500)}\n`],
    ["python", `x = ${"-".repeat(100000)}1\n`],
  ] as const)("never throws for odd %s content", async (language, code) => {
    const result = await validate({ language }, code);
    expect(result.fatal).toBe(false);
  });
});

describe("security guard options", () => {
  it("allowModules lets a module and its uses through, in any import form", async () => {
    const code = 'import fs from "node:fs";\nconst { readFileSync } = require("fs");\nexport const text = fs.readFileSync("a") + readFileSync("b");\n';
    expect(await validate({ language: "javascript" }, code)).toMatchObject({ passed: false, fatal: true });
    expect(await validate({ language: "javascript", allowModules: ["fs"] }, code)).toMatchObject({ passed: true });
    const other = await validate({ language: "javascript", allowModules: ["fs"] }, `${code}require("child_process");\n`);
    expect(other.feedback).toBe('Security: require("child_process") forbidden (line 4)');
  });

  it("allowCalls lets a single member through and keeps the rest of the module forbidden", async () => {
    const code = 'const fs = require("fs");\nfs.readFileSync("a");\nfs.writeFileSync("b", "");\n';
    const result = await validate({ language: "javascript", allowCalls: ["fs.readFileSync"] }, code);
    expect(result.feedback).toBe("Security: fs.writeFileSync forbidden (line 3)");
  });

  it("allowCalls lets JavaScript globals through by name", async () => {
    const code = "export async function load() {\n  return fetch(process.env.URL);\n}\n";
    expect((await validate({ language: "typescript", allowCalls: ["fetch"] }, code)).feedback).toBe("Security: process.env forbidden (line 2)");
    expect(await validate({ language: "typescript", allowCalls: ["fetch", "process.env"] }, code)).toMatchObject({ passed: true });
  });

  it("allowCalls: open lets Python's open() through", async () => {
    const code = "def read(path):\n    with open(path) as handle:\n        return handle.read()\n";
    expect((await validate({ language: "python" }, code)).feedback).toBe("Security: open forbidden (line 2)");
    expect(await validate({ language: "python", allowCalls: ["open"] }, code)).toMatchObject({ passed: true });
  });

  it("allowModules: subprocess lets the import and every use through", async () => {
    const code = "import subprocess\nsubprocess.run(['ls'])\nsubprocess.Popen(['ls'])\n";
    expect(await validate({ language: "python", allowModules: ["subprocess"] }, code)).toMatchObject({ passed: true });
  });

  it("allowCalls: subprocess.run allows that call and its import, not Popen", async () => {
    const code = "import subprocess\nsubprocess.run(['ls'])\nsubprocess.Popen(['ls'])\n";
    expect((await validate({ language: "python", allowCalls: ["subprocess.run"] }, code)).feedback).toBe("Security: subprocess.Popen forbidden (line 3)");
  });

  it("allowModules: os allows os.system; allowCalls: os.environ allows reading the environment", async () => {
    expect(await validate({ language: "python", allowModules: ["os"] }, "import os\nos.system('ls')\n")).toMatchObject({ passed: true });
    const env = "import os\nhome = os.environ.get('HOME')\nos.remove(home)\n";
    expect((await validate({ language: "python", allowCalls: ["os.environ"] }, env)).feedback).toBe("Security: os.remove forbidden (line 3)");
  });
});
