/**
 * Every hostile artifact of the security fixtures, run directly in the sandbox of its language
 * (as if the security guard had been left out), with tests that call each function it defines,
 * handing them the path of a canary file and printing what they return. Whatever each artifact tries, the host must come out
 * unchanged: the canary file intact and unread, the host's environment secret unseen, no
 * connection to a port the test listens on, and the sandbox still working afterwards.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTests } from "../sandbox/run-tests";
import type { TestRunOutcome } from "../sandbox/types";
import { HOSTILE_ARTIFACTS, type HostileArtifact } from "./security/fixtures/hostile-artifacts";

const WALL_CLOCK_MS = 3_000;
const CANARY_CONTENT = `canary-${Math.random().toString(36).slice(2)}`;
const SECRET = `secret-${Math.random().toString(36).slice(2)}`;

function definedFunctions(artifact: HostileArtifact): string[] {
  const pattern =
    artifact.language === "python"
      ? /^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/gm
      : /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)|^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>/gm;
  return [...artifact.code.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? "").filter(Boolean);
}

function callEverything(artifact: HostileArtifact, argument: string): string {
  const names = definedFunctions(artifact);
  if (artifact.language === "python") {
    return [
      "import inspect",
      "def test_call_everything():",
      `    for name in ${JSON.stringify(names)}:`,
      "        fn = globals().get(name)",
      "        if not callable(fn):",
      "            continue",
      "        try:",
      "            required = [p for p in inspect.signature(fn).parameters.values() if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]",
      `            print(repr(fn(*([${JSON.stringify(argument)}] * len(required)))))`,
      "        except BaseException:",
      "            pass",
      "",
    ].join("\n");
  }
  const calls = names.map((name) => `  try { if (typeof ${name} === "function") console.log(String(await ${name}(${JSON.stringify(argument)}, ${JSON.stringify(argument)}))); } catch {}`);
  return `test("call everything", async () => {\n${calls.join("\n")}\n});\n`;
}

describe("hostile artifacts run directly in the sandbox are contained", () => {
  let folder: string;
  let canary: string;
  let server: Server;
  let port = 0;
  let connections = 0;
  const outcomes: { name: string; outcome: TestRunOutcome }[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "dualstate-containment-"));
    canary = join(folder, "canary.txt");
    writeFileSync(canary, CANARY_CONTENT);
    process.env.DUALSTATE_CONTAINMENT_SECRET = SECRET;
    server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    delete process.env.DUALSTATE_CONTAINMENT_SECRET;
    await new Promise((resolve) => server.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  it(`has at least 30 hostile artifacts across both languages (${HOSTILE_ARTIFACTS.length})`, () => {
    expect(HOSTILE_ARTIFACTS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(HOSTILE_ARTIFACTS.map((artifact) => artifact.language === "python"))).toEqual(new Set([true, false]));
  });

  it.each(HOSTILE_ARTIFACTS.map((artifact) => [artifact.name, artifact] as const))("%s", async (name, artifact) => {
    const started = Date.now();
    const outcome = await runTests({
      language: artifact.language,
      artifact: artifact.code.replaceAll("127.0.0.1:0", `127.0.0.1:${port}`),
      tests: callEverything(artifact, canary),
      limits: { wallClockMs: WALL_CLOCK_MS },
    });
    outcomes.push({ name, outcome });
    expect(Date.now() - started).toBeLessThan(WALL_CLOCK_MS + 3_000);
    const output = "output" in outcome ? outcome.output : "";
    expect(JSON.stringify(outcome)).not.toContain(CANARY_CONTENT);
    expect(output).not.toContain(SECRET);
    expect(readFileSync(canary, "utf8")).toBe(CANARY_CONTENT);
    expect(readdirSync(folder)).toEqual(["canary.txt"]);
    expect(connections).toBe(0);
  });

  it("leaves both sandboxes working normally afterwards", async () => {
    const js = await runTests({ language: "javascript", artifact: "function add(a, b) { return a + b; }", tests: "test('adds', () => expect(add(1, 2)).toBe(3));" });
    const py = await runTests({ language: "python", artifact: "def add(a, b):\n    return a + b\n", tests: "def test_adds():\n    assert add(1, 2) == 3\n" });
    expect([js.status, py.status]).toEqual(["passed", "passed"]);
  });
});
