import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../server/cli/main";
import { executeInForeground } from "../server/cli/commands/run-foreground";
import { parseEnv } from "../server/env";
import { answerPersonCall } from "../server/services/tool-calls/answer-person-call";
import type { RunReport } from "../server/cli/commands/run";
import { attemptContent, attemptDelayMs, attemptToolCalls, parseCassette, withoutDelays } from "../server/generators/replay/cassette";
import { createDb, type Db } from "../server/persistence/db";
import { migrateDatabase } from "../server/persistence/migrations/migrate";
import { loadExamplesIntoEmptyDatabase, readExamples } from "../server/services/examples/load-examples";
import { saveWorkflowDefinition } from "../server/services/workflows/save-definition";
import type { WorkflowDefinition } from "../server/workflows/definition";

const here = fileURLToPath(new URL(".", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "dualstate-examples-"));
const databaseUrl = `file:${join(folder, "x.db")}`;
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

/**
 * What each example's description promises, in the order the CLI runs them: write-docstring is
 * stored before tool-use, whose workflow tool runs it (a run start refuses a missing one).
 */
const OUTCOMES = {
  "tdd-lru-cache": { exit: 0, status: "success", finalState: "done" },
  "prime-validator": { exit: 3, status: "failed", finalState: "implementing" },
  "sandbox-escalation": { exit: 4, status: "escalation", finalState: "scripting" },
  "agent-loop": { exit: 0, status: "success", finalState: "shipping" },
  "write-docstring": { exit: 0, status: "success", finalState: "done" },
  "tool-use": { exit: 0, status: "success", finalState: "done" },
} as const;

/** The workflows an example's workflow tools run: a replayed sub-run answers from the same cassette. */
function subWorkflows(definition: WorkflowDefinition): string[] {
  return Object.values(definition.tools ?? {}).flatMap((tool) => (tool.kind === "workflow" ? [tool.workflow] : []));
}

describe("examples/", () => {
  it("holds the six examples, each valid, with a valid replay cassette beside it", () => {
    const examples = readExamples(here);
    expect(examples.map((example) => example.definition.name).sort()).toEqual(Object.keys(OUTCOMES).sort());
    const byName = new Map(examples.map((example) => [example.definition.name, example.definition]));
    for (const example of examples) {
      expect(basename(example.file)).toBe(`${example.definition.name}.yaml`);
      const cassette = parseCassette(JSON.parse(readFileSync(example.cassette, "utf8")));
      // Its own steps, and those of the workflows its tools run.
      const definitions = [example.definition, ...subWorkflows(example.definition).map((name) => byName.get(name)!)];
      const generating = definitions.flatMap((definition) => definition.steps.filter((step) => step.type !== "code").map((step) => step.name));
      for (const step of Object.keys(cassette.steps)) expect(generating).toContain(step);
      // Recorded reports only for the example's tools that wait for a person or an outside system.
      const waiting = Object.entries(example.definition.tools ?? {}).filter(([, tool]) => tool.kind === "person" || tool.kind === "external").map(([name]) => name);
      for (const tool of Object.keys(cassette.reports ?? {})) expect(waiting).toContain(tool);
      expect(example.definition.description).toBeTruthy();
    }
  });

  it("pauses a few seconds per model call, so a first run from the dashboard can be watched", () => {
    for (const example of readExamples(here)) {
      const cassette = parseCassette(JSON.parse(readFileSync(example.cassette, "utf8")));
      const delays = Object.values(cassette.steps).flat().map(attemptDelayMs);
      for (const delay of delays) expect(delay, example.definition.name).toBeGreaterThanOrEqual(1500);
      for (const delay of delays) expect(delay, example.definition.name).toBeLessThanOrEqual(5000);
      const total = delays.reduce((sum, delay) => sum + delay, 0);
      expect(total, example.definition.name).toBeGreaterThanOrEqual(8000);
      expect(total, example.definition.name).toBeLessThanOrEqual(20_000);
    }
  });

  it.each(Object.entries(OUTCOMES))("%s runs offline from the CLI with the promised outcome", async (name, outcome) => {
    await storeSubWorkflows(name);
    const out: string[] = [];
    const err: string[] = [];
    const argv = ["run", join(here, `${name}.yaml`), "--generator", "replay", "--cassette", join(here, `${name}.cassette.json`), "--no-delay", "--json"];
    const code = await main(argv, env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
    expect(err.join("")).toBe("");
    expect(code).toBe(outcome.exit);
    const report = JSON.parse(out.join("")) as RunReport;
    expect(report).toMatchObject({ status: outcome.status, finalState: outcome.finalState });

    if (name === "tdd-lru-cache") expect(report.attempts.filter((a) => a.step === "implement").map((a) => a.passed)).toEqual([false, true]);
    if (name === "prime-validator") {
      expect(report.failedStep).toBe("implement");
      expect(report.attempts.map((a) => a.passed)).toEqual([false, false, false]);
    }
    if (name === "sandbox-escalation") {
      expect(report.escalation).toMatchObject({ step: "write_script" });
      expect(report.escalation?.feedback).toContain("os.system");
      expect(report.attempts).toEqual([expect.objectContaining({ step: "write_script", attempt: 1, passed: false, fatal: true })]);
    }
    if (name === "agent-loop") expect(Object.keys(report.artifacts).sort()).toEqual(["g_impl", "g_test"]);
    if (name === "write-docstring") expect(report.attempts.map((a) => a.passed)).toEqual([false, true]);
    if (name === "tool-use") {
      await expectToolsRan(report.runId);
      lastToolUseRun = report.runId;
    }
  });
});

/** Stores the workflows an example's tools run, as the first start does: a run start refuses a missing one. */
async function storeSubWorkflows(name: string): Promise<void> {
  const examples = readExamples(here);
  const definition = examples.find((example) => example.definition.name === name)!.definition;
  for (const sub of subWorkflows(definition)) await saveWorkflowDefinition(db, examples.find((example) => example.definition.name === sub)!.definition);
}

/**
 * tool-use's agent really ran its tools: the code tool in the sandbox, the person answered from
 * the cassette's report, the sub-run of write-docstring replayed from the same cassette.
 */
async function expectToolsRan(runId: string): Promise<void> {
  const results = await db.ledgerEntry.findMany({ where: { runId, type: "action_result", actor: { in: ["leap_years_between", "ask_owner"] } }, orderBy: { seq: "asc" } });
  expect(results.map((entry) => [entry.actor, entry.payload])).toEqual([
    ["leap_years_between", { years: [1896, 1904, 1908, 1912], count: 4 }],
    ["ask_owner", { answer: "Yes: both start and end count.", include_end: true }],
  ]);
  const waits = await db.toolWait.findMany({ where: { runId } });
  expect(waits).toEqual([expect.objectContaining({ tool: "write_docstring", kind: "workflow", status: "reported", result: expect.objectContaining({ status: "succeeded" }) })]);
  const sub = await db.run.findUnique({ where: { id: waits[0]!.childRunId! }, select: { status: true, parentRunId: true } });
  expect(sub).toEqual({ status: "succeeded", parentRunId: runId });
  const implementation = await db.artifact.findFirst({ where: { runId, guardId: "g_impl", passed: true } });
  expect(implementation?.content).toContain('"""Return the leap years from start to end');
}

let lastToolUseRun: string | undefined;

describe("tool-use exported as a cassette", () => {
  it("holds the agent's turns with their tool calls, the person's answer and the sub-run's steps, and replays to the same outcome", async () => {
    expect(lastToolUseRun).toBeDefined();
    const file = join(folder, "tool-use-exported.cassette.json");
    expect(await main(["cassette", "export", lastToolUseRun!, "--output", file], env as NodeJS.ProcessEnv, { out: () => {}, err: () => {} })).toBe(0);
    const exported = parseCassette(JSON.parse(readFileSync(file, "utf8")));
    const recorded = withoutDelays(parseCassette(JSON.parse(readFileSync(join(here, "tool-use.cassette.json"), "utf8"))));
    expect(Object.keys(exported.steps)).toEqual(["implement", "write_docstring"]);
    expect(exported.steps.implement!.map(attemptToolCalls)).toEqual(recorded.steps.implement!.map(attemptToolCalls));
    expect(exported.steps.implement!.map(attemptContent)).toEqual(recorded.steps.implement!.map(attemptContent));
    expect(exported.steps.write_docstring).toEqual(recorded.steps.write_docstring!.map(attemptContent));
    expect(exported.reports).toEqual(recorded.reports);

    const out: string[] = [];
    const code = await main(["run", join(here, "tool-use.yaml"), "--generator", "replay", "--cassette", file, "--json"], env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: () => {} });
    expect(code).toBe(0);
    await expectToolsRan((JSON.parse(out.join("")) as RunReport).runId);
  });
});

describe("tool-use without its recorded report", () => {
  it("waits for the person: the CLI returns once the run suspends on the question, after the code tool ran; the answer resumes it", async () => {
    await storeSubWorkflows("tool-use");
    const recorded = JSON.parse(readFileSync(join(here, "tool-use.cassette.json"), "utf8")) as { reports?: unknown };
    delete recorded.reports;
    const cassette = join(folder, "tool-use-unanswered.cassette.json");
    writeFileSync(cassette, JSON.stringify(recorded));
    const out: string[] = [];
    const code = await main(["run", join(here, "tool-use.yaml"), "--generator", "replay", "--cassette", cassette, "--no-delay", "--json"], env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: () => {} });
    const report = JSON.parse(out.join("")) as RunReport;
    expect(code).toBe(5);
    const waits = await db.toolWait.findMany({ where: { runId: report.runId } });
    expect(report).toMatchObject({ status: "waiting", escalation: null, failedStep: null, waiting: [{ callId: waits[0]?.id, tool: "ask_owner", kind: "person", step: "implement" }] });
    expect(waits).toEqual([expect.objectContaining({ tool: "ask_owner", kind: "person", status: "waiting", question: "Should leap_years(start, end) include the end year itself?" })]);
    expect(await db.run.findUnique({ where: { id: report.runId }, select: { status: true, waitingToolCount: true } })).toEqual({ status: "suspended", waitingToolCount: 1 });
    expect(await db.ledgerEntry.count({ where: { runId: report.runId, type: "action_result", actor: "leap_years_between" } })).toBe(1);

    // A reviewer answers in the review queue; the run resumes on the cassette's next turns and succeeds.
    const answer = { answer: "No: the end year is left out.", include_end: false };
    expect(await answerPersonCall(db, { callId: waits[0]!.id, answer }, { id: null, email: "ada@example.com" })).toMatchObject({ applied: true, resumed: true });
    await executeInForeground(parseEnv(env), db, report.runId);
    expect(await db.run.findUnique({ where: { id: report.runId }, select: { status: true } })).toEqual({ status: "succeeded" });
    const answered = await db.ledgerEntry.findFirst({ where: { runId: report.runId, type: "action_result", callKey: { endsWith: "/ask_owner" } } });
    expect(answered?.payload).toEqual(answer);
    // The code tool ran once: the resumed turn read its result from the ledger.
    expect(await db.ledgerEntry.count({ where: { runId: report.runId, type: "action_result", actor: "leap_years_between" } })).toBe(1);
    expect(await db.toolWait.findFirst({ where: { runId: report.runId, kind: "workflow" }, select: { result: true } })).toMatchObject({ result: { status: "succeeded" } });
  });
});

describe("loadExamplesIntoEmptyDatabase", () => {
  it("saves every example into an empty database, once", async () => {
    const empty = createDb(`file:${join(folder, "empty.db")}`);
    await migrateDatabase(`file:${join(folder, "empty.db")}`);
    try {
      expect((await loadExamplesIntoEmptyDatabase(empty, here)).sort()).toEqual(Object.keys(OUTCOMES).sort());
      expect(await loadExamplesIntoEmptyDatabase(empty, here)).toEqual([]);
      expect(await empty.workflow.count()).toBe(6);
      expect(await empty.workflowVersion.count()).toBe(6);
    } finally {
      await empty.$disconnect();
    }
  });

  it("leaves a database that already has workflows alone", async () => {
    // The CLI runs above stored the examples here already.
    const before = await db.workflowVersion.count();
    expect(await loadExamplesIntoEmptyDatabase(db, here)).toEqual([]);
    expect(await db.workflowVersion.count()).toBe(before);
  });
});
