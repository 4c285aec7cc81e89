import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { always, executeWorkflow, failed, fatal, passed, requiresGuards, type Generator, type WorkflowStep } from "../../engine";
import { ScriptedGenerator } from "../../engine/testing/scripted-generator";
import { guardFrom } from "../../engine/testing/scripted-guard";
import { parseCassette } from "../../generators/replay/cassette";
import { createReplayGenerator } from "../../generators/replay/replay-generator";
import { PrismaRunRepository } from "../../persistence/prisma-run-repository";
import { createTestDatabase, type TestDatabase } from "../../persistence/testing/test-database";
import { createWorkflow } from "../workflows/create-workflow";
import { createRun } from "../runs/create-run";
import { isServiceError } from "../errors";
import { exportCassette } from "./export-cassette";

let database: TestDatabase;
let repository: PrismaRunRepository;
beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  repository = new PrismaRunRepository(database.db);
});
afterAll(() => database?.dispose());

type Scripts = Record<string, string[]>;
type GeneratorFor = (stepName: string) => Generator;

/** Guards decide from the content alone, so the recorded run and its replay get the same verdicts. */
const tddSteps = (generatorFor: GeneratorFor): WorkflowStep[] => [
  { name: "write_tests", guardId: "g_test", guardArtifactDeps: [], actionPair: { precondition: always, generator: generatorFor("write_tests"), guard: guardFrom(() => passed()) } },
  {
    name: "implement",
    guardId: "g_impl",
    guardArtifactDeps: ["g_test"],
    actionPair: {
      precondition: requiresGuards(["g_test"]),
      generator: generatorFor("implement"),
      guard: guardFrom((artifact) => (artifact.content.includes("os.system") ? fatal("Security: os.system forbidden") : artifact.content.includes("get") ? passed() : failed("test_get failed"))),
    },
  },
];

async function runWorkflow(runId: string, generatorFor: GeneratorFor) {
  const result = await executeWorkflow({
    steps: tddSteps(generatorFor),
    specification: "Implement LRU Cache",
    rmax: 2,
    dag: repository.dag(runId),
    observer: repository.observer(runId),
    calls: repository.calls(runId),
  });
  // Contents in the order they were generated, from the ledger (createdAt may tie within a millisecond).
  const generated = (await repository.ledger(runId)).filter((entry) => entry.type === "generator.completed");
  const contents = await Promise.all(generated.map(async (entry) => (await repository.dag(runId).get(String(entry.payload.artifactId))).artifact.content));
  return { result, contents, stored: await repository.get(runId) };
}

const scenarios: [string, Scripts, string][] = [
  ["refined then passed", { write_tests: ["def test_get(): ..."], implement: ["class LRUCache: put only", "class LRUCache with get"] }, "succeeded"],
  ["retry budget exhausted", { write_tests: ["def test_get(): ..."], implement: ["class A", "class B", "class C"] }, "failed"],
  ["escalated", { write_tests: ["def test_get(): ..."], implement: ["import os; os.system('ls')", "never"] }, "escalated"],
];

describe("exportCassette", () => {
  it.each(scenarios)("a run that %s replays from its cassette to the same artifacts and status", async (_name, scripts, status) => {
    const recorded = await repository.create({ specification: "Implement LRU Cache" });
    const original = await runWorkflow(recorded.id, (name) => new ScriptedGenerator(scripts[name]!));
    expect(original.stored.status).toBe(status);

    const cassette = parseCassette(JSON.parse(JSON.stringify(await exportCassette(database.db, recorded.id))));
    const replay = await repository.create({ specification: "Implement LRU Cache" });
    const replayed = await runWorkflow(replay.id, () => createReplayGenerator(cassette));

    expect(replayed.contents).toEqual(original.contents);
    expect(replayed.stored.status).toBe(original.stored.status);
    expect(replayed.result.status).toBe(original.result.status);
    expect(replayed.stored.attemptCount).toBe(original.stored.attemptCount);
  });

  it("lists every attempt per step in order, steps in the order they ran, with run metadata", async () => {
    const workflow = await createWorkflow(database.db, { name: "lru", definition: {} });
    const { id } = await createRun(database.db, { workflowId: workflow.id, specification: "Implement LRU Cache" }, "ada@example.com");
    await runWorkflow(id, (name) => new ScriptedGenerator(scenarios[0]![1][name]!));
    const run = await repository.get(id);

    const cassette = await exportCassette(database.db, id);
    expect(cassette).toEqual({
      format: "dualstate-cassette/1",
      run: { runId: id, workflow: "lru", workflowVersion: 1, specification: "Implement LRU Cache", status: "succeeded", recordedAt: run.startedAt!.toISOString() },
      steps: { write_tests: ["def test_get(): ..."], implement: ["class LRUCache: put only", "class LRUCache with get"] },
    });
    expect(Object.keys(cassette.steps)).toEqual(["write_tests", "implement"]);
  });

  it("a run with no artifacts yet exports an empty cassette", async () => {
    const { id } = await repository.create({ specification: "queued" });
    expect(await exportCassette(database.db, id)).toMatchObject({ run: { runId: id, workflow: null, status: "queued" }, steps: {} });
  });

  it("an unknown run is NOT_FOUND naming the id", async () => {
    const error = await exportCassette(database.db, "no-such-run").catch((e: unknown) => e);
    expect(isServiceError(error)).toBe(true);
    expect(error).toMatchObject({ code: "NOT_FOUND", message: 'Run "no-such-run" was not found' });
  });
});
