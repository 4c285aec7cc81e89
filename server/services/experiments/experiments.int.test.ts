import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDoorbell } from "@/server/durable/doorbell";
import { DurableStore } from "@/server/durable/durable-store";
import { openSqlClient } from "@/server/persistence/sql/open-sql-client";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { until } from "@/server/testing/until";
import { RunWorker } from "@/server/worker/run-worker";
import { pairDurableStore } from "../durable-store-for";
import { readExamples } from "../examples/load-examples";
import { saveWorkflowDefinition } from "../workflows/save-definition";
import { cancelExperiment } from "./cancel-experiment";
import { compareExperimentsById } from "./compare-experiments";
import { createExperiment } from "./create-experiment";
import { getExperiment } from "./get-experiment";
import { listExperiments } from "./list-experiments";
import { addCassette, insertDataset, saveAddWorkflow, testsExpecting } from "./testing/experiment-fixture";

const turnOptions = { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile: {} };

describe.each(TEST_PROVIDERS)("experiments on %s", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let worker: RunWorker;
  let workflow: Awaited<ReturnType<typeof saveAddWorkflow>>;
  let dataset: { datasetId: string };

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    const doorbell = createDoorbell(database.url);
    store.onMessage = () => doorbell.ring();
    // One SQLite connection for the services and the worker, as the CLI has: two connections of one
    // process would wait on each other's write lock while blocking the event loop both need.
    pairDurableStore(database.db, store);
    worker = new RunWorker(store, doorbell, { ...turnOptions, concurrency: 3, pollMs: 100, watchdogIntervalMs: 250, log: (line) => console.error(line) });
    worker.start();
    workflow = await saveAddWorkflow(database.db);
    dataset = await insertDataset(database.db, "adders", [
      { key: "plain" },
      { key: "tested", checks: testsExpecting(5), variables: { flavour: "tested" } },
      { key: "impossible", checks: testsExpecting(6) },
    ]);
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await store.close();
    await database.dispose();
  });

  it("runs every case k times within the concurrency limit, adds each case's checks to its runs' guards, and scores them", async () => {
    const { id, samples } = await createExperiment(database.db, { workflowId: workflow.workflowId, datasetId: dataset.datasetId, k: 2, concurrency: 2, cassette: addCassette() }, "tester@example.com");
    expect(samples).toBe(6);
    let mostInFlight = 0;
    const done = await until(async () => {
      const detail = await getExperiment(database.db, id);
      mostInFlight = Math.max(mostInFlight, detail.progress.inFlight);
      return detail.status === "completed" ? detail : undefined;
    }, 60_000);
    expect(mostInFlight).toBeLessThanOrEqual(2);
    expect(done.progress).toEqual({ ended: 6, total: 6, inFlight: 0 });
    expect(done.cases.map((row) => [row.key, row.outcome, row.attempts])).toEqual([
      ["plain", "passed", 2],
      ["tested", "passed", 4],
      ["impossible", "failed", 4],
    ]);
    expect(done.summary.passRate).toBeCloseTo(4 / 6, 12);
    expect(done.summary.firstAttemptPassRate).toBeCloseTo(2 / 6, 12);
    expect(done.summary.passAtK.map((entry) => entry.value)).toEqual([2 / 3, 2 / 3]);
    expect(done.summary.attemptsPerStep).toEqual([{ step: "implement", mean: 10 / 6, samples: 6 }]);

    // One run per sample, each carrying its case in its first ledger entry, its variables in its context.
    const runs = await database.db.run.findMany({ where: { experimentId: id }, select: { id: true, status: true, contextValues: true, startedBy: true } });
    expect(runs).toHaveLength(6);
    // Whoever started the experiment started each of its runs.
    expect(runs.every((run) => run.startedBy === "tester@example.com")).toBe(true);
    const sampleRows = await database.db.experimentSample.findMany({ where: { experimentId: id } });
    expect(new Set(sampleRows.map((row) => row.runId)).size).toBe(6);
    const tested = done.cases.find((row) => row.key === "tested")!;
    const testedRun = runs.find((run) => run.id === tested.runs[0]!.runId)!;
    expect(testedRun.contextValues).toEqual({ flavour: "tested" });
    const failing = await database.db.artifact.findFirstOrThrow({ where: { runId: testedRun.id, attempt: 1 } });
    expect(failing.passed).toBe(false);
    expect(failing.feedback).toMatch(/adds/);
    const [entry] = await database.db.ledgerEntry.findMany({ where: { runId: testedRun.id }, orderBy: { seq: "asc" }, take: 1 });
    expect(entry).toMatchObject({ type: "experiment.case", callKey: "experiment.case" });

    const list = await listExperiments(database.db, { page: 1, pageSize: 10 });
    expect(list.items[0]).toMatchObject({ id, status: "completed", samples: 6, ended: 6, succeeded: 4 });
  }, 90_000);

  it("compares two experiments case by case; a version that always subtracts fails the tested case newly", async () => {
    const baseline = await createExperiment(database.db, { workflowId: workflow.workflowId, datasetId: dataset.datasetId, k: 1, concurrency: 3, cassette: addCassette() }, "tester@example.com");
    const subtracting = JSON.stringify({ format: "dualstate-cassette/1", steps: { implement: ["function add(a, b) { return a - b; }", "function add(a, b) { return a - b; }"] } });
    const candidate = await createExperiment(database.db, { workflowId: workflow.workflowId, datasetId: dataset.datasetId, k: 1, concurrency: 3, cassette: subtracting }, "tester@example.com");
    for (const id of [baseline.id, candidate.id]) await until(async () => ((await getExperiment(database.db, id)).status === "completed" ? true : undefined), 60_000);
    const comparison = await compareExperimentsById(database.db, { baselineId: baseline.id, candidateId: candidate.id });
    expect(comparison.cases.map((item) => [item.key, item.change])).toEqual([
      ["plain", "unchanged"],
      ["tested", "newly_failing"],
      ["impossible", "unchanged"],
    ]);
    expect(comparison.regression).toBe(true);
  }, 90_000);

  it("cancel stops starting runs, cancels those in flight, and scores nothing cancelled", async () => {
    const { id } = await createExperiment(database.db, { workflowId: workflow.workflowId, datasetId: dataset.datasetId, k: 3, concurrency: 2, cassette: addCassette(60_000) }, "tester@example.com");
    await until(async () => ((await database.db.run.count({ where: { experimentId: id, status: "running" } })) === 2 ? true : undefined));
    const { cancelledRuns } = await cancelExperiment(database.db, id, "tester@example.com");
    expect(cancelledRuns).toBe(2);
    const settled = await until(async () => {
      const detail = await getExperiment(database.db, id);
      return detail.progress.ended === detail.progress.total ? detail : undefined;
    }, 30_000);
    expect(settled.status).toBe("cancelled");
    expect(await database.db.run.count({ where: { experimentId: id } })).toBe(2);
    expect(settled.summary.scored).toBe(0);
    expect(settled.summary.passRate).toBeNull();
    await expect(cancelExperiment(database.db, id, "tester@example.com")).rejects.toThrow(/already ended \(cancelled\)/);
  }, 60_000);

  it("a run that stops on an escalation scores 'escalated' at once, with its reason, while the run waits for its decision", async () => {
    const example = readExamples().find((item) => item.definition.name === "sandbox-escalation")!;
    const saved = await saveWorkflowDefinition(database.db, example.definition);
    const cases = await insertDataset(database.db, "escalating", [{ key: "clean-up", specification: "Clean up the temp folder" }]);
    const { id } = await createExperiment(database.db, { workflowId: saved.workflowId, datasetId: cases.datasetId, k: 2, concurrency: 2, generator: "replay", noDelay: true }, "tester@example.com");
    const done = await until(async () => {
      const detail = await getExperiment(database.db, id);
      return detail.status === "completed" ? detail : undefined;
    }, 60_000);
    expect(done.cases[0]).toMatchObject({ key: "clean-up", escalated: 2, succeeded: 0 });
    expect(done.summary.escalationRate).toBe(1);
    expect(done.summary.escalationReasons).toHaveLength(1);
    expect(done.summary.escalationReasons[0]).toMatchObject({ count: 2, reason: expect.stringMatching(/^write_script\//) });
    expect(await database.db.run.count({ where: { experimentId: id, status: "suspended" } })).toBe(2);
  }, 90_000);

  it("refuses a case whose variables the workflow does not declare, naming the case and the field", async () => {
    const bad = await insertDataset(database.db, "bad-variables", [{ key: "ok" }, { key: "odd", variables: { colour: "red" } }]);
    await expect(createExperiment(database.db, { workflowId: workflow.workflowId, datasetId: bad.datasetId, k: 1, concurrency: 1, cassette: addCassette() }, "tester@example.com")).rejects.toThrow(
      'case "odd".variables.colour: not a context variable of "exp-add" (declared: flavour)',
    );
    await expect(createExperiment(database.db, { workflowId: workflow.workflowId, datasetId: bad.datasetId, k: 0, concurrency: 1 }, "tester@example.com")).rejects.toThrow(/^k: must be a whole number from 1 to 20/);
  });
});
