import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { until } from "@/server/testing/until";
import { spawnWorker } from "@/server/worker/testing/spawn-worker";
import { createExperiment } from "./create-experiment";
import { addCassette, insertDataset, saveAddWorkflow, testsExpecting } from "./testing/experiment-fixture";

// Killed the n-th time a turn reaches a ledger boundary, with runs of the experiment in flight.
const POINTS = [["guard-returned", 3], ["model-recorded", 5]] as const;

describe.each(TEST_PROVIDERS)("an experiment whose worker is killed with SIGKILL halfway, resumed by another (%s)", (provider) => {
  let database: TestDatabase;
  let workflowId: string;
  let datasetId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    workflowId = (await saveAddWorkflow(database.db)).workflowId;
    datasetId = (
      await insertDataset(database.db, "crash-cases", [
        { key: "plain-1" },
        { key: "tested-1", checks: testsExpecting(5) },
        { key: "impossible", checks: testsExpecting(6) },
        { key: "plain-2" },
        { key: "tested-2", checks: testsExpecting(5) },
      ])
    ).datasetId;
  });
  afterAll(async () => {
    await database.dispose();
  });

  it.each(POINTS)("killed at %s #%i: every case runs k times exactly, none twice, none lost", async (point, nth) => {
    const env = { DATABASE_URL: database.url, DUALSTATE_WORKER_CONCURRENCY: "2" };
    const { id } = await createExperiment(database.db, { workflowId, datasetId, k: 2, concurrency: 3, cassette: addCassette() }, "tester@example.com");

    const doomed = spawnWorker({ ...env, DUALSTATE_TEST_CRASH_AT: `${point}:${nth}` });
    // tsx runs the script in a child and exits 128 + 9 when that child is killed with SIGKILL.
    expect([137, "SIGKILL"], doomed.output()).toContain(await doomed.exited);
    const halfway = await database.db.experimentSample.count({ where: { experimentId: id, outcome: null } });
    expect(halfway, "the experiment was not finished when its worker died").toBeGreaterThan(0);

    const successor = spawnWorker(env);
    try {
      await until(async () => ((await database.db.experiment.findUniqueOrThrow({ where: { id } })).status === "completed" ? true : undefined), 60_000).catch((error) => {
        throw new Error(`${String(error)}\n${successor.output()}`);
      });
    } finally {
      successor.process.kill("SIGTERM");
      await successor.exited;
    }

    const samples = await database.db.experimentSample.findMany({ where: { experimentId: id } });
    expect(samples).toHaveLength(10);
    expect(samples.every((sample) => sample.runId !== null && sample.outcome !== null)).toBe(true);
    const runs = await database.db.run.findMany({ where: { experimentId: id }, select: { id: true, status: true, epoch: true } });
    // One run per sample: no sample was started twice, and no run lacks its sample.
    expect(runs.map((run) => run.id).sort()).toEqual(samples.map((sample) => sample.runId).sort());
    expect(runs.some((run) => run.epoch > 1), "a run of the dead worker was reclaimed and finished by the other").toBe(true);
    for (const run of runs) {
      const ledger = await database.db.ledgerEntry.findMany({ where: { runId: run.id }, select: { type: true } });
      expect(ledger.filter((entry) => entry.type === "experiment.case")).toHaveLength(1);
      expect(ledger.filter((entry) => entry.type === "run.finished")).toHaveLength(1);
    }
    // The outcomes are the cases' own, not the crash's.
    const outcomes = new Map<string, string[]>();
    const cases = await database.db.datasetCase.findMany({ where: { datasetVersion: { datasetId } } });
    for (const sample of samples) {
      const key = cases.find((item) => item.id === sample.caseId)!.key;
      outcomes.set(key, [...(outcomes.get(key) ?? []), sample.outcome!]);
    }
    expect(Object.fromEntries(outcomes)).toEqual({
      "plain-1": ["succeeded", "succeeded"],
      "tested-1": ["succeeded", "succeeded"],
      impossible: ["failed", "failed"],
      "plain-2": ["succeeded", "succeeded"],
      "tested-2": ["succeeded", "succeeded"],
    });
  }, 120_000);
});
