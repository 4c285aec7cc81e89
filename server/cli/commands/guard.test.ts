import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeOpenAiServer } from "../../testing/fake-openai-server";
import { main } from "../main";

const folder = mkdtempSync(join(tmpdir(), "dualstate-guard-cli-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

async function guard(...args: string[]) {
  return guardWithEnv({}, ...args);
}

async function guardWithEnv(env: Record<string, string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["guard", ...args], env as NodeJS.ProcessEnv, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join(""), err: err.join(""), verdict: code === 0 ? (JSON.parse(out.join("")) as Record<string, unknown>) : undefined };
}

const LRU_MISSING_GET = "class LRUCache:\n    def __init__(self, capacity):\n        self.capacity = capacity\n        self.items = {}\n\n    def put(self, key, value):\n        self.items[key] = value\n";
const LRU_TESTS = "def test_put_then_get():\n    cache = LRUCache(2)\n    cache.put(1, 'one')\n    assert cache.get(1) == 'one'\n";

describe("dualstate guard", () => {
  it("prints one JSON verdict and exits 0 when the guard passes", async () => {
    const { code, out, verdict } = await guard("syntax", file("ok.py", "x = 1\n"));
    expect(code).toBe(0);
    expect(Object.keys(verdict ?? {})).toEqual(["passed", "fatal", "feedback", "durationMs"]);
    expect(verdict).toMatchObject({ passed: true, fatal: false, feedback: "" });
    expect(out.trim().split("\n")).toHaveLength(1);
  });

  it("exits 0 on a failing verdict too, with the feedback", async () => {
    const { code, verdict } = await guard("syntax", file("broken.js", "function (\n"));
    expect(code).toBe(0);
    expect(verdict).toMatchObject({ passed: false, fatal: false });
    expect(String(verdict?.feedback)).toContain("line 1, column");
  });

  it("takes the language from the extension unless --language says otherwise", async () => {
    const typed = file("typed.txt", "const x: number = 1;\n");
    expect((await guard("syntax", typed, "--language", "ts")).verdict).toMatchObject({ passed: true });
    expect((await guard("syntax", typed, "--language", "js")).verdict).toMatchObject({ passed: false });
  });

  it("flags 000's os.system escalation as fatal", async () => {
    const { verdict } = await guard("security", file("run.py", "import os\n\ndef run(cmd):\n    os.system(cmd)\n"));
    expect(verdict).toMatchObject({ passed: false, fatal: true });
    expect(String(verdict?.feedback)).toMatch(/os\.system.*\(line 4\)/);
  });

  it("runs the TDD guard against a --dep test file, and fails without one", async () => {
    const impl = file("lru.py", LRU_MISSING_GET);
    const tests = file("test_lru.py", LRU_TESTS);
    const withTests = await guard("tdd", impl, "--dep", `test=${tests}`);
    expect(withTests.verdict).toMatchObject({ passed: false, fatal: false });
    expect(String(withTests.verdict?.feedback)).toContain("test_put_then_get");
    expect(String(withTests.verdict?.feedback)).toContain("get");
    // No tests is the command line's mistake, not a verdict on the artifact.
    const withoutTests = await guard("tdd", impl);
    expect(withoutTests.code).toBe(2);
    expect(withoutTests.err).toContain("the tdd guard takes its tests from a dependency named test");
    expect(withoutTests.err).toContain("--dep test=FILE");
  });

  it("runs the test guard with --test", async () => {
    const impl = file("add.js", "export function add(a, b) { return a + b; }\n");
    const tests = file("add.test.js", "test('adds', () => { expect(add(2, 3)).toBe(5); });\n");
    expect((await guard("test", impl, "--test", tests)).verdict).toMatchObject({ passed: true, fatal: false });
  });

  it("reads JSON options, from a file with @", async () => {
    const schema = file("schema.json", JSON.stringify({ type: "object", required: ["name"] }));
    const { verdict } = await guard("json_schema", file("doc.json", '{"title": "x"}'), "--option", `schema=@${schema}`);
    expect(verdict).toMatchObject({ passed: false });
    expect(String(verdict?.feedback)).toContain("must have required property 'name'");
  });

  it("asks the configured OpenAI-compatible endpoint for the llm_judge verdict", async () => {
    const server = await startFakeOpenAiServer(['{"passed": false, "feedback": "add() has no docstring"}']);
    try {
      const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OPENAI_MODEL: "judge" };
      const { verdict } = await guardWithEnv(env, "llm_judge", file("add.py", "def add(a, b):\n    return a + b\n"), "--option", "rubric=Every function has a docstring");
      expect(verdict).toMatchObject({ passed: false, fatal: false, feedback: "add() has no docstring" });
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("runs composites and the human guard from their object form", async () => {
    const code = file("calc.py", "def add(a, b):\n    return a + b\n");
    const allOf = await guard("all_of", code, "--option", 'guards=[{"kind": "syntax"}, {"kind": "security"}]');
    expect(allOf.verdict).toMatchObject({ passed: true, fatal: false });
    const human = await guard("human", code, "--option", "instructions=Check the licence");
    expect(human.verdict).toMatchObject({ passed: false, fatal: true, feedback: "Awaiting a human decision: Check the licence" });
  });

  it.each([
    [[], /expected <kind> <artifact-file>/],
    [["syntax"], /expected <kind> <artifact-file>/],
    [["frobnicate", "x.py"], /guard\.kind: "frobnicate": must be one of/],
    [["syntax", "/no/such/file.py"], /cannot read artifact "\/no\/such\/file\.py": no such file/],
    [["syntax", "x.py", "--bogus"], /Unknown option '--bogus'/],
    [["syntax", "x.py", "--language", "cobol"], /--language "cobol" is not one of js, ts, python/],
    [["syntax", "x.py", "--test", "t.py"], /--test applies to the test guard only/],
    [["json_schema", "x.py", "--option", "schema"], /--option "schema" must look like KEY=VALUE/],
    [["tdd", "x.py", "--dep", "test"], /--dep "test" must look like NAME=FILE/],
    [["syntax", "x.py", "extra"], /unexpected argument "extra"/],
  ])("exits 2 with a message for %j", async (args, message) => {
    file("x.py", "x = 1\n");
    const resolved = args.map((arg) => (arg === "x.py" ? join(folder, "x.py") : arg));
    const { code, err, out } = await guard(...resolved);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(out).toBe("");
  });

  it("asks for --language when the extension does not tell", async () => {
    const { code, err } = await guard("syntax", file("notes.txt", "x = 1\n"));
    expect(code).toBe(2);
    expect(err).toMatch(/guard\.language: required/);
    expect(err).toContain("pass --language js|ts|python");
  });
});
