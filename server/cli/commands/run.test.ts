import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptContent } from "../../generators/replay/cassette";
import { readCassetteFile } from "../../generators/replay/cassette-file";
import { createDb, type Db } from "../../persistence/db";
import { RELIES_ON_A_DEFAULT } from "../../workflows/fixtures/relies-on-a-default";
import { main } from "../main";
import { USAGE } from "../usage";
import { parseVarValue, type RunReport } from "./run";

const folder = mkdtempSync(join(tmpdir(), "dualstate-run-cli-"));
const databaseUrl = `file:${join(folder, "x.db")}`;
const env: Record<string, string> = { DATABASE_URL: databaseUrl };
const example = (name: string) => fileURLToPath(new URL(`../../../examples/${name}`, import.meta.url));
const TDD = example("tdd-lru-cache.yaml");
const TDD_CASSETTE = example("tdd-lru-cache.cassette.json");
let db: Db;

beforeAll(() => {
  db = createDb(databaseUrl);
});
afterAll(async () => {
  await db.$disconnect();
  rmSync(folder, { recursive: true, force: true });
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["run", ...argv], env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join(""), err: err.join("") };
}

describe("dualstate run --json", () => {
  it("stores the version, runs pinned to it, and prints one object with artifacts and attempts", async () => {
    const { code, out, err } = await cli(TDD, "--generator", "replay", "--cassette", TDD_CASSETTE, "--no-delay", "--json", "--spec", "An LRU cache", "--var", "should_restart=false");
    expect(err).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(out) as RunReport;
    expect(Object.keys(report)).toEqual(["runId", "status", "finalState", "artifacts", "failedStep", "escalation", "waiting", "attempts"]);
    expect(report).toMatchObject({ status: "success", finalState: "done", failedStep: null, escalation: null });
    const cassette = readCassetteFile(TDD_CASSETTE);
    expect(report.artifacts).toEqual({ g_test: attemptContent(cassette.steps.write_tests![0]!), g_impl: attemptContent(cassette.steps.implement![1]!) });
    expect(report.attempts.map(({ step, attempt, passed, fatal }) => ({ step, attempt, passed, fatal }))).toEqual([
      { step: "write_tests", attempt: 1, passed: true, fatal: false },
      { step: "implement", attempt: 1, passed: false, fatal: false },
      { step: "implement", attempt: 2, passed: true, fatal: false },
    ]);
    expect(report.attempts[1]!.feedback).toContain("tests failed");

    const run = await db.run.findUniqueOrThrow({ where: { id: report.runId }, select: { status: true, specification: true, workflowVersion: { select: { version: true, workflow: { select: { name: true } } } } } });
    expect(run).toEqual({ status: "succeeded", specification: "An LRU cache", workflowVersion: { version: 1, workflow: { name: "tdd-lru-cache" } } });

    // Running the same document again reuses the version; a changed one gets a new version.
    const again = JSON.parse((await cli(TDD, "--generator", "replay", "--cassette", TDD_CASSETTE, "--no-delay", "--json")).out) as RunReport;
    const changedFile = join(folder, "tdd-changed.yaml");
    writeFileSync(changedFile, readFileSync(TDD, "utf8").replace("default_max_retries: 3", "default_max_retries: 4"));
    const changed = JSON.parse((await cli(changedFile, "--generator", "replay", "--cassette", TDD_CASSETTE, "--no-delay", "--json")).out) as RunReport;
    const versions = await db.run.findMany({ where: { id: { in: [again.runId, changed.runId] } }, select: { id: true, specification: true, workflowVersion: { select: { version: true } } } });
    const byId = Object.fromEntries(versions.map((row) => [row.id, row]));
    expect(byId[again.runId]).toMatchObject({ specification: "Implement an LRU cache class LRUCache(capacity) with get(key) and put(key, value)", workflowVersion: { version: 1 } });
    expect(byId[changed.runId]).toMatchObject({ workflowVersion: { version: 2 } });
  });

  it("prints a short human summary without --json", async () => {
    const { code, out } = await cli(TDD, "--generator", "replay", "--cassette", TDD_CASSETTE, "--no-delay");
    expect(code).toBe(0);
    expect(out).toMatch(/^Run [0-9a-f-]+ of tdd-lru-cache v\d+: success in state "done" \(3 guarded attempts\)\n/);
    expect(out).toContain("  implement attempt 1: failed: ");
  });
});

describe("dualstate run: a document with warnings", () => {
  it("prints its warnings on stderr before running, and runs it to the end", async () => {
    const cassette = join(folder, "haiku.cassette.json");
    writeFileSync(cassette, JSON.stringify({ format: "dualstate-cassette/1", steps: { write: [{ content: "Kettle hums softly" }] } }));
    const { code, out, err } = await cli(RELIES_ON_A_DEFAULT.file, "--generator", "replay", "--cassette", cassette, "--no-delay", "--json");
    const lines = err.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^warning: /);
    expect(lines.some((line) => RELIES_ON_A_DEFAULT.warning.test(line))).toBe(true);
    // stdout stays the one JSON object; the warnings did not change the outcome.
    expect(JSON.parse(out)).toMatchObject({ status: "success", finalState: "done" });
    expect(code).toBe(0);
  });

  it("an invalid document: its errors, then its warnings, exit 2 and nothing stored", async () => {
    const file = join(folder, "bad-with-default.yaml");
    writeFileSync(file, RELIES_ON_A_DEFAULT.text.replace("in_state: writing", "in_state: nowhere"));
    const before = await db.run.count();
    const { code, out, err } = await cli(file);
    expect(code).toBe(2);
    expect(out).toBe("");
    const lines = err.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^workflow\.steps\[0\]\.in_state \(line \d+, column \d+\): "nowhere" is not a declared state/);
    const firstWarning = lines.findIndex((line) => line.startsWith("warning: "));
    // Every error line comes before every warning line.
    if (firstWarning >= 0) expect(lines.slice(firstWarning).every((line) => line.startsWith("warning: "))).toBe(true);
    expect(await db.run.count()).toBe(before);
  });
});

describe("dualstate run: bad input exits 2 and stores nothing", () => {
  const noSpec = join(folder, "no-spec.yaml");
  const invalid = join(folder, "invalid.yaml");
  beforeAll(() => {
    writeFileSync(noSpec, readFileSync(TDD, "utf8").replace(/^ {2}specification: .*\n/m, ""));
    writeFileSync(invalid, "workflow:\n  name: x\n  state_machine: { states: [a], initial_state: b, final_states: [a] }\n  steps: []\n");
  });

  it.each([
    [["missing.yaml"], "dualstate run: cannot read missing.yaml: no such file"],
    [[TDD, "--cassette", TDD_CASSETTE], "dualstate run: --cassette needs --generator replay"],
    [[TDD, "--no-delay"], "dualstate run: --no-delay needs --generator replay"],
    [[TDD, "--generator", "replay"], "dualstate run: --generator replay needs --cassette FILE"],
    [[TDD, "--generator", "openai"], 'dualstate run: --generator: "openai" is not supported'],
    [[TDD, "--generator", "replay", "--cassette", join(folder, "none.json")], `dualstate run: --cassette: cassette file ${join(folder, "none.json")} was not found`],
    [[TDD, "--generator", "replay", "--cassette", "/dev/zero"], "dualstate run: --cassette: cassette file /dev/zero is not a regular file"],
    [[TDD, "--generator", "replay", "--cassette", "/etc/passwd"], "dualstate run: --cassette: cassette file /etc/passwd: not valid JSON at line 1, column 1"],
    [[TDD, "--var", "should_restart"], 'dualstate run: --var "should_restart": expected NAME=VALUE'],
    [[TDD, "--var", "nope=1"], 'dualstate run: --var nope: not a context variable of workflow "tdd-lru-cache" (declared: should_restart)'],
    [[() => noSpec, "--generator", "replay", "--cassette", TDD_CASSETTE, "--no-delay"], 'dualstate run: no specification: pass --spec TEXT (workflow "tdd-lru-cache" declares no specification)'],
    [[() => invalid], "workflow.state_machine.initial_state (line 3, column 48): \"b\" is not a declared state (state_machine.states)"],
    // No OPENAI_* here and no endpoint under Admin → Models: refused before the run is stored.
    [[TDD], 'dualstate run: Step "write_tests" needs a model, but no model endpoint is configured (an admin adds one under Admin → Models, or sets OPENAI_BASE_URL)'],
  ])("%j", async (argv, message) => {
    const before = await db.run.count().catch(() => 0);
    const { code, out, err } = await cli(...argv.map((arg) => (typeof arg === "function" ? arg() : arg)));
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain(message);
    expect(err).not.toContain(USAGE);
    expect(await db.run.count().catch(() => 0)).toBe(before);
  });

  it.each([
    [[], "dualstate run: expected <file>"],
    [["a.yaml", "b.yaml"], 'dualstate run: unexpected argument "b.yaml"'],
    [["a.yaml", "--bogus"], "dualstate run: Unknown option '--bogus'"],
  ])("usage errors %j", async (argv, message) => {
    const { code, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(err.startsWith(message)).toBe(true);
    expect(err).toContain(USAGE);
  });
});

describe("parseVarValue", () => {
  it("reads true/false and numbers, and keeps anything else as text", () => {
    expect([parseVarValue("true"), parseVarValue("false"), parseVarValue("3"), parseVarValue("-2.5"), parseVarValue("1e3")]).toEqual([true, false, 3, -2.5, 1000]);
    expect([parseVarValue("True"), parseVarValue(""), parseVarValue("0x10"), parseVarValue("3 apples"), parseVarValue("Infinity")]).toEqual(["True", "", "0x10", "3 apples", "Infinity"]);
  });
});
