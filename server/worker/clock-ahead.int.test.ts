import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDoorbell } from "../durable/doorbell";
import { DurableStore } from "../durable/durable-store";
import type { TurnOutcome } from "./execute-turn";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { TEST_PROVIDERS } from "../persistence/testing/test-database";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { until } from "../testing/until";
import { validateWorkflowDocument } from "../workflows/definition";
import { RunWorker, type WorkerOptions } from "./run-worker";
import { createDurableFixture, type DurableFixture } from "./testing/durable-fixture";

// One step whose replay waits a minute: the turn stays live, its worker renewing the lease.
const HOLDING = `
name: holding
specification: Write a JSON object
state_machine:
  states: [writing, done]
  initial_state: writing
  final_states: [done]
  transitions:
    - { from: writing, to: done, condition: g_write }
steps:
  - name: write
    in_state: writing
    guard_id: g_write
    prompt: "Write a JSON object"
    guards: [{ kind: json_schema, schema: { type: object } }]
`;
const slowReplay = { kind: "replay", cassette: { steps: { write: [{ content: '{"a": 1}', delay_ms: 60_000 }] } } };
const FIVE_MINUTES = 5 * 60_000;
const aheadClock = () => new Date(Date.now() + FIVE_MINUTES);

describe.each(TEST_PROVIDERS)("a worker whose clock runs five minutes ahead (%s)", (provider) => {
  let fixture: DurableFixture;
  let holdingVersion: string;
  const workers: RunWorker[] = [];
  const stores: DurableStore[] = [];

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    const validated = validateWorkflowDocument(HOLDING, "holding.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    holdingVersion = (await saveWorkflowDefinition(fixture.database.db, validated.definition)).versionId;
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop(1_000)));
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  afterAll(async () => {
    await fixture.dispose();
  });

  /** A worker on a connection of its own, as another process would have. */
  function startWorker(options: Partial<WorkerOptions>, turns: TurnOutcome[] = []): RunWorker {
    const store = new DurableStore(openSqlClient(fixture.database.url));
    stores.push(store);
    const worker = new RunWorker(store, createDoorbell(fixture.database.url), {
      leaseMs: 1_500,
      escalationTimeoutMs: 10 * 60_000,
      maxRetries: 3,
      compile: {},
      pollMs: 50,
      onTurn: (_turn, outcome) => turns.push(outcome),
      ...options,
    });
    worker.start();
    workers.push(worker);
    return worker;
  }
  const runOf = (runId: string) => fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });

  it("does not take over a live run from a healthy worker", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: holdingVersion, specification: "hold", generatorOverride: slowReplay });
    const healthy = startWorker({ workerId: "healthy" });
    await until(async () => ((await fixture.database.db.ledgerEntry.count({ where: { runId, type: "action_call" } })) > 0 ? true : undefined));

    const aheadTurns: TurnOutcome[] = [];
    const ahead = startWorker({ workerId: "ahead", clock: aheadClock, watchdogIntervalMs: 100 }, aheadTurns);
    // Well past the lease: the healthy worker's heartbeat renews it meanwhile; the watchdog of the
    // worker ahead sweeps about twenty times, and once more here.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await ahead.sweepNow();

    const run = await runOf(runId);
    expect(run).toMatchObject({ status: "running", epoch: 1, leaseOwner: healthy.workerId, watchdogNote: null });
    expect(run.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(run.leaseExpiresAt!.getTime()).toBeLessThan(Date.now() + 60_000);
    expect(aheadTurns).toEqual([]);

    await fixture.store.requestCancel(runId, "done holding");
    await until(async () => ((await runOf(runId)).status === "cancelled" ? true : undefined));
  });

  it("sets an escalation's deadline by the database's clock, not its own", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "run a command", generatorOverride: fixture.replay("sandbox-escalation") });
    const turns: TurnOutcome[] = [];
    startWorker({ workerId: "ahead-alone", clock: aheadClock, onlyRunId: runId }, turns);
    await until(async () => (turns.includes("suspended") ? true : undefined));

    const expected = Date.now() + 10 * 60_000;
    const run = await runOf(runId);
    const escalation = await fixture.database.db.escalation.findFirstOrThrow({ where: { runId } });
    // Five minutes off would be far outside a minute's slack.
    expect(Math.abs(run.resumeDeadline!.getTime() - expected)).toBeLessThan(60_000);
    expect(Math.abs(escalation.expiresAt!.getTime() - expected)).toBeLessThan(60_000);
    // The times a run reports are the worker's own.
    expect(run.startedAt!.getTime()).toBeGreaterThan(Date.now() + FIVE_MINUTES - 60_000);
  });
});
