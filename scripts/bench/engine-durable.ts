/**
 * Durable engine benchmark (issue 6): the whole worker path, executed against a real database.
 *
 * Workload: BENCH_RUNS (default 1,000) runs of a two-step TDD workflow stored as a real workflow
 * version (write_tests, then implement with guard_artifact_deps [g_test]; max_retries 3). Each
 * step is generate → guard with retry and feedback. The generator is instant and deterministic:
 * from a fixed seed and the run's specification ("bench run <i>") it fails the first 0, 1 or 2
 * attempts of each step (a marker in the content); the guard only reads that marker. A transition
 * is one generate or one guard execution, so a run has 2 × attempts transitions (known in advance
 * from the seed and checked against the runs' attemptCount afterwards).
 *
 * The runs are enqueued first (not timed). Then RunWorker loops execute them exactly as in
 * production (claim, loadTurn, runMachine through the TurnJournal, one commit per attempt, the
 * final commit), except that `machineFor` binds the instant generator and trivial guard: the
 * stored definition is compiled once with compileWorkflow and each turn gets a copy whose action
 * pairs use the bench generator and guard. Timed until every run has ended (RunWorker's onTurn).
 *
 * Figures, per database (SQLite with synchronous=FULL and =NORMAL set explicitly, PostgreSQL):
 *   µs/transition   one worker, concurrency 1. For each run: from the start of the claim that
 *                   took it to the end of its turn (claim + loadTurn + engine + every commit),
 *                   divided by the run's transitions. The median over the runs is the figure;
 *                   the mean (wall time / all transitions) is printed next to it.
 *   runs/s          runs / wall time from the workers' start to the last run's end.
 *   commit µs       the database's own durable single-row commit, measured in the same process on
 *                   the same database right after the runs (physical-limit.ts): SQLite BEGIN
 *                   IMMEDIATE / INSERT / COMMIT on a second connection to the same file with the
 *                   same synchronous setting; PostgreSQL an autocommit single-row INSERT. Median
 *                   of commits made back to back. The ratio µs/transition ÷ commit µs says how
 *                   close the engine gets to that limit.
 *   idle commit µs  the same commit, each made after the idle that precedes every decision
 *                   (IDLE_BEFORE_DECISION_MS). Decision and round-trip figures are divided by it.
 *   workers         PostgreSQL: 1, 2 and 4 workers, each a separate DurableStore (its own pool),
 *                   doorbell and RunWorker with concurrency 1, all in this one Node process (one
 *                   JavaScript thread). Each worker count gets a fresh database and its own runs.
 *                   The workers, the benchmark and the PostgreSQL server share this machine's
 *                   cores (2 where it was written): the 4-worker figure then measures CPU
 *                   contention as much as the protocol's ability to scale.
 *   db scaling      PostgreSQL alone: durable single-row commits from 1, 2 and 4 connections at once
 *                   (postgresCommitScaling), so the workers' scaling reads against the server's and
 *                   the disk's own on the same machine in the same run.
 *   decision        one worker idle on its doorbell; a run suspends on a fatal verdict; a second
 *                   DurableStore (the deciding process; on SQLite over the worker's connection, see
 *                   runConfiguration) calls resolveEscalation(approve). Measured
 *                   from resolveEscalation's return (the decision is committed) to the return of
 *                   the worker's commit that records the run's next state (state.advanced). It
 *                   includes the wake-up (PostgreSQL: LISTEN/NOTIFY only, as for a worker in
 *                   another process; SQLite: the process-local doorbell, rung inside
 *                   resolveEscalation before it returns, so there the worker's claim can start
 *                   before the clock does and the figure is slightly low), the claim, loadTurn,
 *                   the replay and that commit. BENCH_DECISIONS (default 50) repetitions.
 *
 * The profile lines split the one-worker time between the run store's statements (claim,
 * loadTurn, commit) and the rest (engine, journal, worker loop), count commits, and split the
 * decision latency into wake-up, claim, loadTurn, and replay up to the state.advanced commit.
 * Below them every SQL statement of the timed phase and of the decisions' phase, by kind
 * (metered-sql.ts): calls and µs per transition or per decision cycle, and on SQLite a
 * transaction's own BEGIN + COMMIT (where the write-ahead log is written and synced).
 * The targets are printed twice: issue 6's in µs, and issue 18's as ratios to the durable commit.
 * PostgreSQL needs TEST_POSTGRES_URL (a server where databases may be created and dropped).
 * A benchmark that prints a table: there are no assertions beyond the workload's own checks.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { failed, fatal, passed, type Generator, type Guard, type MachineStep, type WorkflowMachine } from "../../server/engine";
import { DurableStore } from "../../server/durable/durable-store";
import type { ClaimedTurn, TurnBatch, TurnSnapshot } from "../../server/durable/types";
import { openSqlClient } from "../../server/persistence/sql/open-sql-client";
import type { SqlClient } from "../../server/persistence/sql/sql-client";
import { createTestDatabase, testPostgresUrl } from "../../server/persistence/testing/test-database";
import { saveWorkflowDefinition } from "../../server/services/workflows/save-definition";
import { createDoorbell, type Doorbell } from "../../server/durable/doorbell";
import { meteredSql, type StatementTimes } from "./metered-sql";
import type { TurnOutcome } from "../../server/worker/execute-turn";
import { RunWorker } from "../../server/worker/run-worker";
import { compileWorkflow } from "../../server/workflows/compile";
import { validateWorkflowDocument, type WorkflowDefinition } from "../../server/workflows/definition";
import { durableCommit, IDLE_BEFORE_DECISION_MS, postgresCommitScaling, type Target } from "./physical-limit";
import { measureRoundTrips, roundTripDefinition, roundTripMachine, ROUND_TRIP_WORKFLOW, type RoundTrips } from "./tool-report-round-trip";

const RUNS = positiveInt(process.env.BENCH_RUNS, 1_000);
/** BENCH_DURABLE_ONLY=sqlite-full,sqlite-normal,postgres limits the configurations (for profiling one). */
const ONLY = process.env.BENCH_DURABLE_ONLY ? new Set(process.env.BENCH_DURABLE_ONLY.split(",").map((name) => name.trim())) : undefined;
const included = (name: string) => ONLY === undefined || ONLY.has(name);
const DECISIONS = positiveInt(process.env.BENCH_DECISIONS, 50);
const SEED = "issue-6";

const TARGETS = {
  sqliteFullUs: 240,
  sqliteNormalUs: 100,
  postgresUs: 400,
  scaling: 3,
  decisionMs: 2,
};

/** Issue 18: µs per transition, and decision → next state, as multiples of one durable commit. */
const RATIO_TARGETS = {
  sqliteFull: 2.5,
  sqliteNormal: 8,
  postgres: 1.5,
  decisionCommits: 5,
};

const WORKFLOW_YAML = `
workflow:
  name: bench-tdd
  description: "Issue 6 benchmark: tests, then an implementation depending on them"
  specification: bench
  language: python
  default_on_failure: fail
  default_max_retries: 3
  state_machine:
    states: [writing_tests, implementing, done]
    initial_state: writing_tests
    final_states: [done]
    transitions:
      - { from: writing_tests, to: implementing, condition: g_test }
      - { from: implementing, to: done, condition: g_impl }
  steps:
    - name: write_tests
      type: action_pair
      in_state: writing_tests
      guard_id: g_test
      generator: { kind: llm }
      prompt: "Write tests for: {specification}"
      guards: [ { kind: syntax } ]
      max_retries: 3
    - name: implement
      type: action_pair
      in_state: implementing
      guard_id: g_impl
      generator: { kind: llm }
      prompt: "Implement {specification} so that these tests pass:\\n{test}"
      guards: [ { kind: syntax } ]
      guard_artifact_deps: [g_test]
      max_retries: 3
`;

function positiveInt(text: string | undefined, fallback: number): number {
  const value = text === undefined || text === "" ? fallback : Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`expected a whole number ≥ 1, got "${text}"`);
  return value;
}

// ---------------------------------------------------------------- workload

const STEPS = ["write_tests", "implement"] as const;

/** Attempts of `step` the generator fails before it passes (0, 1 or 2), by the fixed seed. */
function failuresOf(specification: string, step: string): number {
  return createHash("sha256").update(`${SEED}\u0000${specification}\u0000${step}`).digest()[0]! % 3;
}

function transitionsOf(specification: string): number {
  return STEPS.reduce((sum, step) => sum + 2 * (failuresOf(specification, step) + 1), 0);
}

const escalating = (specification: string) => specification.startsWith("bench escalation");

/** Instant and deterministic: the content carries the verdict the guard will read. */
function benchGenerator(specification: string, step: string): Generator {
  const failures = failuresOf(specification, step);
  return {
    generate: async (request) => {
      const marker = escalating(specification) && step === "write_tests" && request.attempt === 1 ? "FATAL" : request.attempt <= failures ? "FAIL" : "PASS";
      return { content: `# ${step}, attempt ${request.attempt}: ${marker}\ndef solution():\n    return 42\n` };
    },
  };
}

const markerGuard: Guard = {
  validate: async (artifact) => {
    if (artifact.content.includes(": PASS\n")) return passed();
    if (artifact.content.includes(": FATAL\n")) return fatal("bench: a person has to look at this");
    return failed("bench: the marker says this attempt fails; try again");
  },
};

/** The compiled definition with the bench generator and guard bound to this run. */
function machineForRun(template: WorkflowMachine, specification: string): WorkflowMachine {
  return {
    ...template,
    steps: template.steps.map((step): MachineStep => {
      if (step.kind !== "action_pair") return step;
      // Without the draft guard: the bench generator never checks drafts.
      const { draftGuard: _draftGuard, ...rest } = step;
      return { ...rest, actionPair: { ...step.actionPair, generator: benchGenerator(specification, step.name), guard: markerGuard } };
    }),
  };
}

function benchDefinition(): WorkflowDefinition {
  const result = validateWorkflowDocument(WORKFLOW_YAML, "bench-tdd.yaml");
  if (!result.ok) throw new Error(`bench workflow is invalid: ${result.problems.map((problem) => `${problem.path}: ${problem.message}`).join("; ")}`);
  return result.definition;
}

/** Compiles like executeTurn does by default; the endpoint is never called (the generators are swapped). */
const compileContext = { endpoint: { baseURL: "http://127.0.0.1:9/v1", apiKey: "bench-unused", model: "bench-unused" } };

// ---------------------------------------------------------------- metered store

interface Meter {
  claims: number;
  claimMs: number;
  emptyClaims: number;
  loads: number;
  loadMs: number;
  commits: number;
  commitMs: number;
  artifactReads: number;
  artifactMs: number;
}

const newMeter = (): Meter => ({ claims: 0, claimMs: 0, emptyClaims: 0, loads: 0, loadMs: 0, commits: 0, commitMs: 0, artifactReads: 0, artifactMs: 0 });

/** The production run store, timing its calls (performance.now around each, nothing else). */
class MeteredRunStore extends DurableStore {
  readonly meter = newMeter();
  /** When the claim that took each run (its latest turn) started and ended, and its loadTurn ended. */
  readonly claimStarted = new Map<string, number>();
  readonly claimEnded = new Map<string, number>();
  readonly loadStarted = new Map<string, number>();
  readonly loadEnded = new Map<string, number>();
  onCommitted?: (turn: ClaimedTurn, batch: TurnBatch, at: number, started: number) => void;

  override async claim(workerId: string, leaseMs: number, onlyRunId?: string): Promise<ClaimedTurn | null> {
    const started = performance.now();
    const turn = await super.claim(workerId, leaseMs, onlyRunId);
    if (turn) {
      const ended = performance.now();
      this.meter.claims++;
      this.meter.claimMs += ended - started;
      this.claimStarted.set(turn.runId, started);
      this.claimEnded.set(turn.runId, ended);
      // PostgreSQL's claim reads the run in the same statement: loadTurn is not called.
      if (turn.snapshot) {
        this.loadStarted.set(turn.runId, ended);
        this.loadEnded.set(turn.runId, ended);
      }
    } else {
      this.meter.emptyClaims++;
    }
    return turn;
  }

  override async loadTurn(runId: string): Promise<TurnSnapshot> {
    const started = performance.now();
    this.loadStarted.set(runId, started);
    const snapshot = await super.loadTurn(runId);
    const ended = performance.now();
    this.meter.loads++;
    this.meter.loadMs += ended - started;
    this.loadEnded.set(runId, ended);
    return snapshot;
  }

  override async commit(turn: ClaimedTurn, batch: TurnBatch): Promise<void> {
    const started = performance.now();
    await super.commit(turn, batch);
    const at = performance.now();
    this.meter.commits++;
    this.meter.commitMs += at - started;
    this.onCommitted?.(turn, batch, at, started);
  }

  override async getArtifact(runId: string, artifactId: string) {
    const started = performance.now();
    const artifact = await super.getArtifact(runId, artifactId);
    this.meter.artifactReads++;
    this.meter.artifactMs += performance.now() - started;
    return artifact;
  }
}

// ---------------------------------------------------------------- one configuration

interface Decisions {
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly minMs: number;
  readonly samples: number;
  /** Medians of the parts, in ms: resolveEscalation itself (before the clock starts), then decided → claim started (wake-up), the claim, loadTurn, and the replay up to the end of the state.advanced commit. */
  readonly parts: { readonly resolve: number; readonly wake: number; readonly claim: number; readonly beforeLoad: number; readonly load: number; readonly replay: number; readonly commit: number };
}


interface ThroughputResult {
  readonly label: string;
  readonly workers: number;
  readonly runs: number;
  readonly transitions: number;
  readonly wallMs: number;
  readonly medianUsPerTransition: number;
  readonly meanUsPerTransition: number;
  readonly commitUs: number;
  /** The same commit after the idle a decision follows (physical-limit.ts): what decision figures are divided by. */
  readonly idleCommitUs: number;
  readonly meter: Meter;
  /** Every statement of the timed phase, by kind. */
  readonly statements: StatementTimes;
  readonly decisions?: Decisions;
  /** Issue 18: suspend → report → resume round trips through a tool that waits. */
  readonly roundTrips?: RoundTrips;
  /** Every statement of the decisions' phase (each decision's whole cycle: enqueue, first turn, decision, resumed turn), by kind. */
  readonly decisionStatements?: StatementTimes;
  /** CPU time during the timed phase: this Node process (every worker) and the PostgreSQL server. */
  readonly cpu: { readonly nodeMs: number; readonly postgresMs: number };
}

const labelOf = (target: Target) => (target.provider === "sqlite" ? `SQLite ${target.synchronous}` : "PostgreSQL");

async function runConfiguration(target: Target, workers: number, options: { decisions: boolean }): Promise<ThroughputResult> {
  const database = await createTestDatabase(target.provider);
  const sqliteSynchronous = target.provider === "sqlite" ? target.synchronous : undefined;
  // SQLite: one connection for the whole process, shared by every store. Two better-sqlite3
  // connections in one process can deadlock: a transaction open across an await on one, and a
  // BEGIN IMMEDIATE on the other busy-waiting synchronously, which blocks the thread holding the
  // lock until busy_timeout. PostgreSQL: a pool per store, as separate processes would have.
  // Every statement is timed by kind (metered-sql.ts); only the timed phase's are kept.
  const statements: StatementTimes = new Map();
  const metered = (client: SqlClient) => meteredSql(client, statements);
  const shared = target.provider === "sqlite" ? metered(openSqlClient(database.url, { sqliteSynchronous })) : undefined;
  const openStore = <T extends DurableStore>(Store: new (sql: SqlClient) => T) => new Store(shared ?? metered(openSqlClient(database.url, { maxConnections: 3 })));
  const definition = benchDefinition();
  const template = compileWorkflow(definition, compileContext);
  const { versionId } = await saveWorkflowDefinition(database.db, definition);
  const roundTripVersion = options.decisions ? (await saveWorkflowDefinition(database.db, roundTripDefinition())).versionId : undefined;

  // The enqueuing (and later deciding) process: its own connection, no worker.
  const outside = openStore(DurableStore);
  const expected = new Map<string, number>();
  let transitions = 0;
  for (let i = 0; i < RUNS; i++) {
    const specification = `bench run ${i}`;
    const { runId } = await outside.enqueueRun({ workflowVersionId: versionId, specification });
    expected.set(runId, transitionsOf(specification));
    transitions += transitionsOf(specification);
  }

  const perRunUs: number[] = [];
  const outcomes = new Map<string, TurnOutcome>();
  const turnWaiters = new Map<string, (outcome: TurnOutcome) => void>();
  const earlyTurns = new Map<string, TurnOutcome>();
  /** The outcome of the run's next turn (or of the one that already ended unawaited). */
  const nextTurn = (runId: string): Promise<TurnOutcome> => {
    const early = earlyTurns.get(runId);
    if (early !== undefined) {
      earlyTurns.delete(runId);
      return Promise.resolve(early);
    }
    return new Promise((resolve) => turnWaiters.set(runId, resolve));
  };
  let ended = 0;
  let allEnded: () => void = () => {};
  const allDone = new Promise<void>((resolve) => (allEnded = resolve));

  const stores: MeteredRunStore[] = [];
  const doorbells: Doorbell[] = [];
  const runWorkers: RunWorker[] = [];
  for (let w = 0; w < workers; w++) {
    const store = openStore(MeteredRunStore);
    const doorbell = createDoorbell(database.url);
    store.onMessage = () => doorbell.ring();
    const worker = new RunWorker(store, doorbell, {
      workerId: `bench-${w + 1}`,
      concurrency: 1,
      leaseMs: 30_000,
      escalationTimeoutMs: 3_600_000,
      maxRetries: 3,
      pollMs: 1_000,
      compile: compileContext,
      machineFor: (definition, snapshot) => (definition.name === ROUND_TRIP_WORKFLOW ? roundTripMachine(definition) : machineForRun(template, snapshot.specification)),
      log: (line) => console.error(`  [${labelOf(target)}] ${line}`),
      onTurn: (turn, outcome) => {
        const finished = performance.now();
        const waiter = turnWaiters.get(turn.runId);
        if (waiter) {
          turnWaiters.delete(turn.runId);
          waiter(outcome);
          return;
        }
        // A decisions' run whose turn ended before anyone waited for it (a busy machine).
        if (!expected.has(turn.runId)) {
          earlyTurns.set(turn.runId, outcome);
          return;
        }
        outcomes.set(turn.runId, outcome);
        const perRun = expected.get(turn.runId);
        const claimed = store.claimStarted.get(turn.runId);
        if (perRun !== undefined && claimed !== undefined) perRunUs.push(((finished - claimed) * 1000) / perRun);
        if (++ended === RUNS) allEnded();
      },
    });
    stores.push(store);
    doorbells.push(doorbell);
    runWorkers.push(worker);
  }
  // Give the PostgreSQL LISTEN connections a moment to be established before anything is timed.
  await new Promise((resolve) => setTimeout(resolve, 200));

  const cpuBefore = { node: process.cpuUsage(), postgres: postgresCpuMs() };
  statements.clear();
  const started = performance.now();
  for (const worker of runWorkers) worker.start();
  await allDone;
  const wallMs = performance.now() - started;
  const statementTimes: StatementTimes = new Map([...statements].map(([label, time]) => [label, { ...time }]));
  const nodeCpu = process.cpuUsage(cpuBefore.node);
  const postgresAfter = postgresCpuMs();
  const cpu = {
    nodeMs: (nodeCpu.user + nodeCpu.system) / 1000,
    postgresMs: cpuBefore.postgres !== undefined && postgresAfter !== undefined ? postgresAfter - cpuBefore.postgres : Number.NaN,
  };

  const notSucceeded = [...outcomes.values()].filter((outcome) => outcome !== "succeeded").length;
  if (notSucceeded > 0) throw new Error(`${labelOf(target)}: ${notSucceeded} runs did not succeed`);
  const [attempts] = await outside.sql.query<{ attempts: number | string | null }>(`SELECT SUM("attemptCount") AS "attempts" FROM "Run"`);
  if (2 * Number(attempts?.attempts ?? 0) !== transitions) throw new Error(`${labelOf(target)}: the runs made ${attempts?.attempts} attempts, the seed says ${transitions / 2}`);

  const meter = newMeter();
  for (const store of stores) for (const key of Object.keys(meter) as (keyof Meter)[]) meter[key] += store.meter[key];

  let decisions: ThroughputResult["decisions"];
  let decisionStatements: StatementTimes | undefined;
  let roundTrips: RoundTrips | undefined;
  if (options.decisions) {
    statements.clear();
    decisions = await measureDecisions(target, outside, stores[0]!, doorbells[0]!, versionId, nextTurn);
    roundTrips = await measureRoundTrips(target.provider, outside, stores[0]!, doorbells[0]!, roundTripVersion!, nextTurn, DECISIONS);
    decisionStatements = new Map([...statements].map(([label, time]) => [label, { ...time }]));
  }

  for (const worker of runWorkers) await worker.stop(1_000);
  for (const doorbell of doorbells) await doorbell.close();
  if (shared) {
    await shared.close();
  } else {
    for (const store of stores) await store.close();
    await outside.close();
  }

  const commit = await durableCommit(target, database);
  await database.dispose();

  perRunUs.sort((a, b) => a - b);
  return {
    label: labelOf(target),
    workers,
    runs: RUNS,
    transitions,
    wallMs,
    medianUsPerTransition: quantile(perRunUs, 0.5),
    meanUsPerTransition: (wallMs * 1000) / transitions,
    commitUs: commit.hotUs,
    idleCommitUs: commit.afterIdleUs,
    meter,
    statements: statementTimes,
    decisions,
    decisionStatements,
    roundTrips,
    cpu,
  };
}

/**
 * CPU time used so far by every PostgreSQL server process on this machine (Linux /proc), in ms;
 * undefined where /proc is not readable. Includes the WAL writer and other background processes.
 */
function postgresCpuMs(): number | undefined {
  try {
    const ticksPerSecond = 100; // USER_HZ on Linux
    let ticks = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // the process ended meanwhile
      }
      if (!stat.includes("(postgres)") && !stat.includes("(postmaster)")) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    }
    return (ticks * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- decision → next state

async function measureDecisions(
  target: Target,
  decider: DurableStore,
  workerStore: MeteredRunStore,
  doorbell: Doorbell,
  versionId: string,
  nextTurn: (runId: string) => Promise<TurnOutcome>,
): Promise<Decisions> {
  // SQLite has no cross-process doorbell: a deciding web server rings the worker in its own
  // process (the embedded worker). PostgreSQL: no local ring at all, only NOTIFY.
  decider.onMessage = target.provider === "sqlite" ? () => doorbell.ring() : undefined;
  const latencies: number[] = [];
  const parts = { resolve: [] as number[], wake: [] as number[], claim: [] as number[], beforeLoad: [] as number[], load: [] as number[], replay: [] as number[], commit: [] as number[] };
  for (let i = 0; i < DECISIONS + 3; i++) {
    const enqueued = await decider.enqueueRun({ workflowVersionId: versionId, specification: `bench escalation ${i}` });
    const first = await nextTurn(enqueued.runId);
    if (first !== "suspended") throw new Error(`escalation run ended ${first}, expected suspended`);
    const [escalation] = await decider.sql.query<{ id: string }>(`SELECT "id" FROM "Escalation" WHERE "runId" = ? AND "status" = 'pending'`, [enqueued.runId]);
    if (!escalation) throw new Error("the suspended run has no pending escalation");
    // The worker is idle on its doorbell, as it is while a person reads the escalation.
    await new Promise((resolve) => setTimeout(resolve, IDLE_BEFORE_DECISION_MS));

    let advancedAt = 0;
    let commitStartedAt = 0;
    const advanced = new Promise<void>((resolve) => {
      workerStore.onCommitted = (turn, batch, at, started) => {
        if (turn.runId === enqueued.runId && batch.ledger.some((row) => row.type === "state.advanced")) {
          advancedAt = at;
          commitStartedAt = started;
          workerStore.onCommitted = undefined;
          resolve();
        }
      };
    });
    const resumed = nextTurn(enqueued.runId);
    const deciding = performance.now();
    const outcome = await decider.resolveEscalation({ escalationId: escalation.id, decision: { decision: "approve", decidedBy: "bench" } });
    const decided = performance.now();
    if (!outcome.ok) throw new Error(`the decision did not apply: ${outcome.status}`);
    await advanced;
    const last = await resumed;
    if (last !== "succeeded") throw new Error(`the approved run ended ${last}, expected succeeded`);
    if (i >= 3) {
      // The first three warm up the statements of the resume path.
      latencies.push(advancedAt - decided);
      const claimStarted = workerStore.claimStarted.get(enqueued.runId) ?? Number.NaN;
      const claimEnded = workerStore.claimEnded.get(enqueued.runId) ?? Number.NaN;
      const loadStarted = workerStore.loadStarted.get(enqueued.runId) ?? Number.NaN;
      const loadEnded = workerStore.loadEnded.get(enqueued.runId) ?? Number.NaN;
      parts.resolve.push(decided - deciding);
      parts.wake.push(claimStarted - decided);
      parts.claim.push(claimEnded - claimStarted);
      parts.beforeLoad.push(loadStarted - claimEnded);
      parts.load.push(loadEnded - loadStarted);
      parts.replay.push(commitStartedAt - loadEnded);
      parts.commit.push(advancedAt - commitStartedAt);
    }
  }
  decider.onMessage = undefined;
  latencies.sort((a, b) => a - b);
  const median = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.5);
  return {
    medianMs: quantile(latencies, 0.5),
    p95Ms: quantile(latencies, 0.95),
    minMs: latencies[0] ?? 0,
    samples: latencies.length,
    parts: {
      resolve: median(parts.resolve),
      wake: median(parts.wake),
      claim: median(parts.claim),
      beforeLoad: median(parts.beforeLoad),
      load: median(parts.load),
      replay: median(parts.replay),
      commit: median(parts.commit),
    },
  };
}

// ---------------------------------------------------------------- report

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function fmt(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** µs spent in the run store's calls per transition, and commits per transition (one worker). */
/** µs per transition outside the store's calls (the engine, the journal, the worker loop): wall time minus claim, loadTurn, commit and reads. */
function outsideStoreUs(result: ThroughputResult): number {
  const m = result.meter;
  return ((result.wallMs - (m.claimMs + m.loadMs + m.commitMs + m.artifactMs)) * 1000) / result.transitions;
}

function profileLine(result: ThroughputResult): string {
  const m = result.meter;
  const t = result.transitions;
  const perT = (ms: number) => fmt((ms * 1000) / t);
  return (
    `${result.label.padEnd(12)} ${(m.commits / t).toFixed(2)} commits/transition (${m.commits} commits, ${m.claims} claims); per transition: ` +
    `commit ${perT(m.commitMs)} µs, claim ${perT(m.claimMs)} µs, loadTurn ${perT(m.loadMs)} µs, other store reads ${perT(m.artifactMs)} µs, ` +
    `rest (engine, journal, worker loop) ${fmt(outsideStoreUs(result))} µs`
  );
}

/** The statements of the timed phase by time spent, per transition: where the store's time goes. */
function statementProfile(label: string, statements: StatementTimes, units: number, unit: string): string {
  const rows = [...statements].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((sum, [, time]) => sum + time.ms, 0);
  const lines = rows
    .filter(([, time]) => (time.ms * 1000) / units >= 0.5)
    .map(([what, time]) => `      ${fmt((time.ms * 1000) / units, 1).padStart(7)} µs/${unit}  ${(time.calls / units).toFixed(2).padStart(5)} calls/${unit}  ${fmt((time.ms * 1000) / time.calls).padStart(5)} µs/call  ${what}`);
  return [`    ${label}: statements, ${fmt((total * 1000) / units)} µs per ${unit === "t" ? "transition" : "decision"} in all`, ...lines].join("\n");
}

function compileUs(): number {
  const definition = benchDefinition();
  for (let i = 0; i < 200; i++) compileWorkflow(definition, compileContext);
  const started = performance.now();
  const n = 2_000;
  for (let i = 0; i < n; i++) compileWorkflow(definition, compileContext);
  return ((performance.now() - started) * 1000) / n;
}

export async function benchEngineDurable(): Promise<void> {
  const load = () => loadavg().map((value) => value.toFixed(2)).join(" ");
  const sampleTransitions = Array.from({ length: RUNS }, (_, i) => transitionsOf(`bench run ${i}`)).reduce((a, b) => a + b, 0);
  console.log(`\nDurable engine (issue 6): ${RUNS} runs of a two-step TDD workflow, ${sampleTransitions} transitions (generate or guard), rmax 3,`);
  console.log(`instant seeded generator failing 0-2 attempts per step, trivial guard; RunWorker + DurableStore on a fresh database each.`);
  console.log(`µs/transition: one worker, per run (claim → end of its turn) ÷ its transitions, median over runs; see scripts/bench/engine-durable.ts.`);
  console.log(`Load average before: ${load()} (other processes on this machine disturb these figures).\n`);

  const single: ThroughputResult[] = [];
  for (const target of [{ provider: "sqlite", synchronous: "FULL" }, { provider: "sqlite", synchronous: "NORMAL" }] as const) {
    if (!included(`sqlite-${target.synchronous.toLowerCase()}`)) continue;
    console.log(`Running ${labelOf(target)}, 1 worker...`);
    single.push(await runConfiguration(target, 1, { decisions: true }));
  }
  const scaling: ThroughputResult[] = [];
  if (!included("postgres")) {
    console.log("PostgreSQL left out (BENCH_DURABLE_ONLY).");
  } else if (testPostgresUrl) {
    for (const workers of [1, 2, 4]) {
      console.log(`Running PostgreSQL, ${workers} worker${workers === 1 ? "" : "s"}...`);
      const result = await runConfiguration({ provider: "postgres" }, workers, { decisions: workers === 1 });
      if (workers === 1) single.push(result);
      scaling.push(result);
    }
  } else {
    console.log(`PostgreSQL skipped: set TEST_POSTGRES_URL (e.g. postgresql://postgres@127.0.0.1:5432/test) to include it.`);
  }

  console.log("");
  console.log(
    `${"database".padEnd(13)} ${"median µs/t".padStart(11)} ${"mean µs/t".padStart(10)} ${"runs/s".padStart(8)} ${"commit µs".padStart(10)} ${"ratio".padStart(6)}   ${"idle commit µs".padStart(14)}   decision → next state: median / p95 / min`,
  );
  for (const r of single) {
    const decision = r.decisions ? `${fmt(r.decisions.medianMs, 2)} / ${fmt(r.decisions.p95Ms, 2)} / ${fmt(r.decisions.minMs, 2)} ms (${r.decisions.samples} decisions)` : "";
    console.log(
      `${r.label.padEnd(13)} ${fmt(r.medianUsPerTransition).padStart(11)} ${fmt(r.meanUsPerTransition).padStart(10)} ${fmt((r.runs * 1000) / r.wallMs).padStart(8)} ${fmt(r.commitUs).padStart(10)} ${(r.medianUsPerTransition / r.commitUs).toFixed(2).padStart(6)}   ${fmt(r.idleCommitUs).padStart(14)}   ${decision}`,
    );
  }
  console.log(`ratio = median µs per transition ÷ median durable single-row commit µs, the commits made back to back.`);
  console.log(`idle commit = the same commit made ${IDLE_BEFORE_DECISION_MS} ms after the last statement, as each decision is (see physical-limit.ts).`);
  if (scaling.length > 0) {
    const one = scaling[0]!;
    console.log("");
    console.log(`PostgreSQL workers (separate DurableStore + RunWorker each, concurrency 1, one Node process on ${availableParallelism()} cores, server on the same machine):`);
    for (const r of scaling) {
      const runsPerSecond = (r.runs * 1000) / r.wallMs;
      const cpuPerRunMs = (r.cpu.nodeMs + r.cpu.postgresMs) / r.runs;
      console.log(
        `  ${String(r.workers).padStart(2)} worker${r.workers === 1 ? " " : "s"}  ${fmt(runsPerSecond).padStart(6)} runs/s  ${fmt((r.transitions * 1000) / r.wallMs).padStart(7)} transitions/s  × ${(one.wallMs / r.wallMs).toFixed(2)} of one worker` +
          `   CPU busy ${fmt((r.cpu.nodeMs + r.cpu.postgresMs) / r.wallMs, 2)} of ${availableParallelism()} cores (Node ${fmt((r.cpu.nodeMs * 1000) / r.runs)} µs + PostgreSQL ${fmt((r.cpu.postgresMs * 1000) / r.runs)} µs per run; all cores busy would allow ${fmt((availableParallelism() * 1000) / cpuPerRunMs)} runs/s)`,
      );
    }
    const ceiling = (availableParallelism() * 1000 * one.runs) / (one.cpu.nodeMs + one.cpu.postgresMs);
    console.log(
      `  The CPU one worker's run costs (Node + PostgreSQL) caps this machine at ~${fmt(ceiling)} runs/s, × ${(ceiling / ((one.runs * 1000) / one.wallMs)).toFixed(2)} of one worker: ` +
        `the ceiling for any number of workers here, before contention.`,
    );
    const commitScaling = await postgresCommitScaling();
    const oneConnection = commitScaling[0]!.commitsPerSecond;
    console.log(
      `  PostgreSQL alone, durable single-row commits from 1/2/4 connections at once (same machine, same run): ` +
        commitScaling.map((c) => `${c.connections} → ${fmt(c.commitsPerSecond)}/s (× ${(c.commitsPerSecond / oneConnection).toFixed(2)})`).join(", "),
    );
  }

  console.log("\nProfile of the one-worker runs (time inside DurableStore calls vs. everything else):");
  for (const r of single) console.log(`  ${profileLine(r)}`);
  for (const r of single) console.log(statementProfile(r.label, r.statements, r.transitions, "t"));
  for (const r of single) if (r.decisionStatements && r.decisions) console.log(statementProfile(`${r.label} decisions (each: enqueue, first turn, decision, resumed turn)`, r.decisionStatements, r.decisions.samples + 3, "d"));
  for (const r of single) {
    const p = r.decisions?.parts;
    if (!p) continue;
    console.log(
      `  ${r.label.padEnd(13)} decision → next state, medians: wake-up ${fmt(p.wake, 2)} ms, claim ${fmt(p.claim, 2)} ms, claim → loadTurn ${fmt(p.beforeLoad, 2)} ms, loadTurn ${fmt(p.load, 2)} ms, replay ${fmt(p.replay, 2)} ms, state.advanced commit ${fmt(p.commit, 2)} ms` +
        ` (resolveEscalation itself, before the clock starts: ${fmt(p.resolve, 2)} ms)`,
    );
  }
  console.log(`  not in the figures: executeTurn compiles the stored definition every turn by default; compileWorkflow of this definition takes ${fmt(compileUs(), 1)} µs`);

  const rows: [string, string, string, boolean][] = [];
  const find = (label: string) => single.find((r) => r.label === label);
  const usRow = (label: string, target: number) => {
    const r = find(label);
    if (r) rows.push([`${label}: median µs per transition`, fmt(r.medianUsPerTransition), `≤ ${target}`, r.medianUsPerTransition <= target]);
  };
  usRow("SQLite FULL", TARGETS.sqliteFullUs);
  usRow("SQLite NORMAL", TARGETS.sqliteNormalUs);
  usRow("PostgreSQL", TARGETS.postgresUs);
  if (scaling.length === 3) {
    const factor = scaling[0]!.wallMs / scaling[2]!.wallMs;
    rows.push(["PostgreSQL: 4 workers' throughput ÷ 1 worker's", `× ${factor.toFixed(2)}`, `≥ × ${TARGETS.scaling}`, factor >= TARGETS.scaling]);
  }
  const pgDecision = find("PostgreSQL")?.decisions;
  if (pgDecision) rows.push(["PostgreSQL: decision → next state, median", `${fmt(pgDecision.medianMs, 2)} ms`, `≤ ${TARGETS.decisionMs} ms`, pgDecision.medianMs <= TARGETS.decisionMs]);

  // Issue 18: the same figures as ratios to the database's own durable commit in this run, so a
  // slower or faster disk moves both sides. Transitions run back to back: divided by the commit
  // made back to back. A decision comes after the worker idled: divided by the commit made after
  // the same idle (the first statements after a pause cost several times more on this kind of
  // machine, the engine's and the database's alike). Decisions: SQLite FULL and PostgreSQL only
  // (a commit at NORMAL does not wait for the disk, so a wake-up alone is many of them).
  const ratios: [string, string, string, boolean][] = [];
  const ratioRow = (label: string, target: number) => {
    const r = find(label);
    if (!r) return;
    const ratio = r.medianUsPerTransition / r.commitUs;
    ratios.push([`${label}: transition ÷ commit`, ratio.toFixed(2), `≤ ${target}`, ratio <= target]);
  };
  ratioRow("SQLite FULL", RATIO_TARGETS.sqliteFull);
  ratioRow("SQLite NORMAL", RATIO_TARGETS.sqliteNormal);
  ratioRow("PostgreSQL", RATIO_TARGETS.postgres);
  for (const label of ["SQLite FULL", "PostgreSQL"]) {
    const r = find(label);
    if (!r?.decisions) continue;
    const commits = (r.decisions.medianMs * 1000) / r.idleCommitUs;
    ratios.push([`${label}: decision → next state ÷ idle commit`, commits.toFixed(2), `≤ ${RATIO_TARGETS.decisionCommits}`, commits <= RATIO_TARGETS.decisionCommits]);
  }
  console.log(`\nSuspend → report → resume (a tool that waits, reported from outside after ${IDLE_BEFORE_DECISION_MS} ms idle; medians, and as multiples of one durable commit after the same idle):`);
  for (const r of single) {
    const trips = r.roundTrips;
    if (!trips) continue;
    const inCommits = (ms: number) => ((ms * 1000) / r.idleCommitUs).toFixed(1);
    console.log(
      `  ${r.label.padEnd(13)} suspending turn ${fmt(trips.suspendMs, 2)} ms (${inCommits(trips.suspendMs)}), report ${fmt(trips.reportMs, 2)} ms (${inCommits(trips.reportMs)}), ` +
        `report → next state ${fmt(trips.resumeMs, 2)} ms (${inCommits(trips.resumeMs)}), round trip ${fmt(trips.totalMs, 2)} ms (${inCommits(trips.totalMs)}) over ${trips.samples} round trips`,
    );
  }

  console.log(`\nLoad average after: ${load()}.`);
  printTargets("Issue 6 targets:", rows);
  printTargets("Issue 18 targets (ratios to one durable single-row commit of the same database, same run):", ratios);
  for (const r of single) console.log(`  ${floorLine(r)}`);
  for (const r of single) if (r.decisions && r.label !== "SQLite NORMAL") console.log(`  ${hotDecisionLine(r, r.decisions)}`);
}

/** The decision figure divided by the back-to-back commit instead, as issue 18 first measured it, for comparison across sessions. */
function hotDecisionLine(r: ThroughputResult, decisions: Decisions): string {
  const hot = (decisions.medianMs * 1000) / r.commitUs;
  const idle = (decisions.medianMs * 1000) / r.idleCommitUs;
  return (
    `${r.label}: decision → next state ÷ back-to-back commit ${hot.toFixed(2)} (the ratio issue 18 first measured); ` +
    `a commit after ${IDLE_BEFORE_DECISION_MS} ms idle costs ${(r.idleCommitUs / r.commitUs).toFixed(1)} back-to-back ones here, and the decision ${idle.toFixed(2)} of those`
  );
}

/**
 * What a transition costs outside the database (the engine, the journal, the worker loop: wall
 * time minus the store's calls), as a multiple of the durable commit, next to the ratio target:
 * where that floor alone is above the target, no change to the store can meet it.
 */
function floorLine(r: ThroughputResult): string {
  const floorUs = outsideStoreUs(r);
  const target = r.label === "SQLite FULL" ? RATIO_TARGETS.sqliteFull : r.label === "SQLite NORMAL" ? RATIO_TARGETS.sqliteNormal : RATIO_TARGETS.postgres;
  const leftUs = target * r.commitUs - floorUs;
  const verdict = leftUs > 0 ? `the target leaves the store ${fmt(leftUs)} µs per transition` : `above the target before any statement: the store alone cannot meet it`;
  return `${r.label}: outside the database (mean) ${fmt(floorUs)} µs per transition = ${(floorUs / r.commitUs).toFixed(2)} commits; ${verdict}`;
}

function printTargets(title: string, rows: readonly [string, string, string, boolean][]): void {
  if (rows.length === 0) return;
  console.log(`\n${title}`);
  const width = Math.max(...rows.map(([what]) => what.length));
  for (const [what, value, target, ok] of rows) console.log(`  ${what.padEnd(width)} ${value.padStart(9)}  ${target.padEnd(9)} ${ok ? "met" : "MISSED"}`);
}
