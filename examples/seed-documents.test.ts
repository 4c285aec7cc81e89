/**
 * The seeds' own examples (docs/seeds, extracted as written) run offline from the CLI, exactly as
 * a user would run them (`npx dualstate run agent.yaml --generator replay --cassette …`), to the
 * end state each document implies.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { main } from "../server/cli/main";
import type { RunReport } from "../server/cli/commands/run";
import { createDb, type Db } from "../server/persistence/db";
import { migrateDatabase } from "../server/persistence/migrations/migrate";
import { toYaml } from "../server/workflows/document";
import { guardClassNames, pythonFields, seed004AgentYaml, seed004Examples, seedText } from "../server/workflows/definition/seed-format/testing/seed-examples";

const folder = mkdtempSync(join(tmpdir(), "dualstate-seeds-"));
const databaseUrl = `file:${join(folder, "seeds.db")}`;
const env: Record<string, string> = { DATABASE_URL: databaseUrl };
let db: Db;

beforeAll(async () => {
  await migrateDatabase(databaseUrl);
  db = createDb(databaseUrl);
});
afterAll(async () => {
  await db.$disconnect();
  rmSync(folder, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

function cassette(name: string, steps: Record<string, string[]>): string {
  return file(`${name}.cassette.json`, JSON.stringify({ format: "dualstate-cassette/1", steps }));
}

async function run(document: string, steps: Record<string, string[]>, ...extra: string[]): Promise<{ code: number; report: RunReport; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const argv = ["run", document, "--generator", "replay", "--cassette", cassette(basename(document).replace(/\.\w+$/, ""), steps), "--no-delay", "--json", ...extra];
  const code = await main(argv, env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  if (out.length === 0) expect.fail(`no report; stderr: ${err.join("")}`);
  return { code, report: JSON.parse(out.join("")) as RunReport, err: err.join("") };
}

async function entries(runId: string, type: string): Promise<Record<string, unknown>[]> {
  const rows = await db.ledgerEntry.findMany({ where: { runId, type }, orderBy: { seq: "asc" }, select: { payload: true } });
  return rows.map((row) => row.payload as Record<string, unknown>);
}

describe("004's examples run to the state they imply", () => {
  const examples = seed004Examples();

  it("agent.yaml: observe, compute the metrics, and with an idea go on to testing, its first state with no way out", async () => {
    const agent = file("agent.yaml", toYaml(seed004AgentYaml()));
    const { code, report } = await run(agent, { observe: ["Scrip is scarce; build a cheap tool."] }, "--spec", "Maximize scrip", "--var", "has_idea=true");
    expect(report).toMatchObject({ status: "success", finalState: "testing" });
    expect(code).toBe(0);
    // compute_metrics ran 004's Python: no successes yet, so it set should_pivot; has_idea's transition comes first.
    const computed = await entries(report.runId, "step.completed");
    // It runs in ideating and implementing (no step of their own); the second time nothing changes.
    expect(computed.map((payload) => payload.updates).filter(Boolean)).toEqual([{ success_rate: 0, should_pivot: true }, {}]);
  }, 120_000);

  it("the steps block: observe, then ideating, where it ends", async () => {
    const { code, report } = await run(file("steps.yaml", examples.steps), { observe: ["I look around."] }, "--spec", "Look");
    expect([code, report.status, report.finalState]).toEqual([0, "success", "ideating"]);
  }, 120_000);

  it("the state machine alone moves by the variables a run sets", async () => {
    const machine = file("machine.yaml", examples.stateMachine);
    const { report } = await run(machine, {}, "--spec", "Move", "--var", "has_context=true", "--var", "has_idea=true");
    expect(report).toMatchObject({ status: "success", finalState: "testing" });
    const stuck = await run(machine, {}, "--spec", "Move");
    expect(stuck.report).toMatchObject({ status: "failed", finalState: "observing" });
    const [finished] = await entries(stuck.report.runId, "run.finished");
    expect(finished?.reason).toBe('No transition applies in state "observing"');
  }, 120_000);

  it("the transition step: an answer outside its map is retried with the allowed answers, then pivot leads to observing", async () => {
    const reflect = file("reflect.yaml", toYaml({ steps: parse(examples.transitionStep) }));
    const { code, report } = await run(reflect, { strategic_reflect: ["maybe later", " Pivot "] }, "--spec", "Reflect");
    expect([code, report.status, report.finalState]).toEqual([0, "success", "observing"]);
  }, 120_000);

  it("the code step: 004's Python runs in the sandbox and the run ends after it", async () => {
    const metrics = file("metrics.yaml", toYaml({ steps: parse(examples.codeStep) }));
    const { code, report } = await run(metrics, {}, "--spec", "Measure");
    expect([code, report.status, report.finalState]).toEqual([0, "success", "done"]);
  }, 120_000);

  it("the error handling block: risky_step fails both its attempts (max_retries: 1) and on_failure: skip goes on", async () => {
    const risky = file("risky.yaml", examples.errorHandling);
    const skipped = await run(risky, { risky_step: ["", "   "] }, "--spec", "Try");
    expect([skipped.code, skipped.report.status, skipped.report.finalState]).toEqual([0, "success", "done"]);
    const answered = await run(risky, { risky_step: ["Done."] }, "--spec", "Try");
    expect(answered.report).toMatchObject({ status: "success", finalState: "done" });
  }, 120_000);
});

describe("001's sequential TDD workflow, written with 001's names, runs to done", () => {
  it("writes tests, fails an implementation, refines it and passes", async () => {
    const text = seedText("001");
    const [name, actionPair, guardId, deps] = pythonFields(text, "WorkflowStep") as [string, string, string, string];
    const [, generator, guard, promptTemplate] = pythonFields(text, "ActionPair") as [string, string, string, string];
    const [role, constraints, task] = pythonFields(text, "PromptTemplate") as [string, string, string];
    const [steps, , rmax] = pythonFields(text, "Workflow") as [string, string, string];
    const [syntax, , tdd] = guardClassNames(text) as [string, string, string];
    const document = {
      [rmax]: 2,
      [steps]: [
        { [name]: "write_tests", [guardId]: "g_test", [actionPair]: { [generator]: "llm", [guard]: syntax, [promptTemplate]: { [role]: "You write pytest tests.", [constraints]: "", [task]: "Write tests for {specification}" } } },
        { [name]: "implement", [guardId]: "g_impl", [deps]: ["g_test"], [actionPair]: { [generator]: "llm", [guard]: tdd, [promptTemplate]: { [role]: "You write Python.", [constraints]: "", [task]: "Make these tests pass:\n{test}" } } },
      ],
    };
    const tests = "def test_add():\n    assert add(2, 3) == 5\n";
    const { code, report } = await run(file("tdd.json", JSON.stringify(document)), { write_tests: [tests], implement: ["def add(a, b):\n    return a - b\n", "def add(a, b):\n    return a + b\n"] }, "--spec", "add(a, b)");
    expect(report).toMatchObject({ status: "success", finalState: "done" });
    expect(code).toBe(0);
    expect(Object.keys(report.artifacts).sort()).toEqual(["g_impl", "g_test"]);
    expect(report.attempts.filter((attempt) => attempt.step === "implement").map((attempt) => attempt.passed)).toEqual([false, true]);

    // 001's precondition ρ: a step whose precondition does not hold fails the run ("Precondition not met").
    const [precondition] = pythonFields(text, "ActionPair") as [string];
    const guarded = structuredClone(document) as { steps: Record<string, Record<string, unknown>>[] };
    guarded.steps[1]![actionPair]![precondition] = "not g_test";
    const refused = await run(file("tdd-precondition.json", JSON.stringify(guarded)), { write_tests: [tests], implement: ["def add(a, b):\n    return a + b\n"] }, "--spec", "add(a, b)");
    expect(refused.report).toMatchObject({ status: "failed", failedStep: "implement" });
    const [finished] = await entries(refused.report.runId, "run.finished");
    expect(finished?.reason).toBe('Precondition not met for step "implement"');
  }, 180_000);
});
