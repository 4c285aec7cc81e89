import { randomUUID } from "node:crypto";
import { abortable, isEngineError, isToolsPending, runMachine, type MachineResult, type ToolsPendingError, type WorkflowMachine, type WorkflowResult } from "../engine";
import { GeneratorSpecError } from "../generators/generator-spec";
import { FORK_LEDGER_KEY, readAttemptEdit } from "../generators/fork/edited-attempt";
import { GuardSpecError } from "../guards/guard-spec";
import type { DurableStore } from "../durable/durable-store";
import { isLeaseLost } from "../durable/errors";
import { isBudgetStop, type BudgetStop } from "../durable/budget-stop";
import { derivedId } from "../durable/ids";
import { LeaseGate } from "../durable/lease-gate";
import { TurnJournal, type CrashPoint } from "../durable/turn-journal";
import type { ClaimedTurn, ParentReport, TurnSnapshot } from "../durable/types";
import type { TurnOutcome as RecordedOutcome } from "../durable/lifecycle";
import type { ModelDirectory } from "../models/model-directory";
import type { TurnTelemetry, WorkerTelemetry } from "../telemetry/worker-telemetry";
import { CASE_LEDGER_KEY, definitionForRun } from "../experiments/case-checks";
import { compileWorkflow, type CompileContext } from "../workflows/compile";
import type { WorkflowDefinition } from "../workflows/definition";
import { backoffMs } from "./backoff";
import { LiveCallRelay } from "./live-call-relay";
import { subRunResult } from "./sub-run-result";
import { TurnStoppedError, isTurnStopped } from "./turn-stop";

export interface TurnOptions {
  readonly leaseMs: number;
  /** How long a run waits for a person's decision before the watchdog expires the escalation. */
  readonly escalationTimeoutMs: number;
  /** Deferred retries of a turn that failed for a transient reason, before the run fails. */
  readonly maxRetries: number;
  /**
   * Claims whose worker died in the middle of the turn (its lease expired) before the run is
   * given up: a run that kills its worker (memory, a native crash) must not be claimed forever.
   */
  readonly maxCrashes?: number;
  /** Endpoint and sandbox settings for compiling workflows (the run's own override is added). */
  readonly compile: Omit<CompileContext, "generatorOverride" | "contextValues" | "editedAttempt" | "models">;
  /**
   * The model endpoints as they are now (Admin → Models and OPENAI_*), read for every turn so a
   * change in Settings reaches the next turn. Without it, `compile.endpoint` is the one endpoint.
   */
  readonly loadModels?: () => Promise<ModelDirectory>;
  readonly crashAt?: (point: CrashPoint) => void;
  readonly log?: (line: string) => void;
  /**
   * The worker's clock (injected by tests): the times a run reports. Never an expiry or a
   * deadline: those are the database's clock, so a worker whose clock runs ahead cannot take a
   * live run over.
   */
  readonly clock?: () => Date;
  /**
   * Builds the machine a run executes; by default its stored definition compiled with `compile`.
   * Benchmarks and tests pass machines with in-process generators here.
   */
  readonly machineFor?: (definition: WorkflowDefinition, snapshot: TurnSnapshot) => WorkflowMachine;
  /** Traces and metrics (server/telemetry); absent: none. */
  readonly telemetry?: WorkerTelemetry;
}

/** "lost": another turn owns the run, or is about to (a cancel that stopped this turn takes it over). */
export type TurnOutcome = RecordedOutcome;

export const DEFAULT_MAX_CRASHES = 3;

/** A failure that retrying cannot fix: the workflow or its settings are wrong. */
function isPermanent(error: unknown): boolean {
  return error instanceof GeneratorSpecError || error instanceof GuardSpecError || isEngineError(error);
}

const failure = (failedStep: string, reason: string): WorkflowResult => ({ status: "failed", artifacts: {}, failedStep, reason, provenance: [] });

/**
 * Executes one claimed turn: replays the run from its ledger and goes on from where it stopped,
 * until it finishes, suspends on an escalation, or is cancelled. Every write is guarded by the
 * turn's epoch; a turn that lost its run stops without a trace (LeaseLostError → "lost").
 * Every ending delivers: a final result and exactly one run.finished entry (003 section 4).
 *
 * `signal` stops the turn from outside at any moment (its reason a TurnStoppedError: a cancel, a
 * shutdown); a heartbeat that finds the run taken over stops it too. A stopped turn records
 * nothing that the stop interrupted: a shutdown hands the run back to the inbox at once.
 */
export async function executeTurn(store: DurableStore, turn: ClaimedTurn, options: TurnOptions, signal?: AbortSignal, seen: TurnSeen = {}): Promise<TurnOutcome> {
  const telemetry = await options.telemetry?.startTurn(turn);
  if (!telemetry) return execute(store, turn, options, signal, undefined, seen);
  try {
    const outcome = await execute(store, turn, options, signal, telemetry, seen);
    await telemetry.end(outcome);
    return outcome;
  } catch (error) {
    await telemetry.end("error", error);
    throw error;
  }
}

/** What a turn read that its caller may use afterwards without reading it again (the worker's after-turn hooks). */
export interface TurnSeen {
  snapshot?: TurnSnapshot;
}

async function execute(store: DurableStore, turn: ClaimedTurn, options: TurnOptions, signal: AbortSignal | undefined, telemetry: TurnTelemetry | undefined, seen: TurnSeen): Promise<TurnOutcome> {
  const stop = new AbortController();
  const relay = () => stop.abort(signal?.reason);
  if (signal?.aborted) relay();
  signal?.addEventListener("abort", relay, { once: true });
  // The heartbeat, and the proof checked before every call and write; losing it stops the turn.
  const lease = new LeaseGate(store, turn, options.leaseMs, () => stop.abort(new TurnStoppedError("lease-lost")), options.log);
  lease.start();
  let journal: TurnJournal | undefined;
  let loaded: TurnSnapshot | undefined;
  // Tokens of a streaming model call, for the run page; it writes only when tokens arrive.
  const liveCall = new LiveCallRelay(store.liveCalls, turn.runId, turn.epoch);
  try {
    const snapshot = turn.snapshot ?? (await store.loadTurn(turn.runId));
    telemetry?.setWorkflow(snapshot.definition);
    loaded = snapshot;
    seen.snapshot = snapshot;
    journal = new TurnJournal(store, turn, snapshot, {
      crashAt: options.crashAt,
      checkLease: () => lease.check(),
      clock: options.clock,
      priceOf: (names) => store.modelPrice(names),
      stopTurn: (reason) => stop.abort(reason),
    });

    if (turn.kind === "cancel") {
      const reason = typeof turn.payload.reason === "string" && turn.payload.reason ? turn.payload.reason : "cancelled";
      const by = typeof turn.payload.by === "string" && turn.payload.by ? turn.payload.by : null;
      // Who cancelled, as data: the run page says "Cancelled by <who>", not a failure.
      journal.append("human", "run.cancelled", { by, reason }, "run.cancelled");
      const why = by ? `Cancelled by ${by}: ${reason}` : `Cancelled: ${reason}`;
      journal.recordNow({ type: "run.finished", result: failure("(run)", why) }, "run.finished");
      await journal.end({ head: { status: "cancelled", resumeDeadline: null }, cancelEscalations: true, record: { outcome: "cancelled", reason: why }, ...runEnded(turn, snapshot, { failure: why }) });
      return "cancelled";
    }
    const crashes = typeof turn.payload.crashes === "number" ? turn.payload.crashes : 0;
    if (crashes >= (options.maxCrashes ?? DEFAULT_MAX_CRASHES)) {
      const reason = `Given up: the run's worker crashed ${crashes} times while executing it (each time its lease expired in the middle of a turn; last: ${turn.deferReason ?? "worker lost"})`;
      journal.recordNow({ type: "run.finished", result: failure("(run)", reason) }, "run.finished");
      await journal.end({ record: { outcome: "failed", reason }, ...runEnded(turn, snapshot, { failure: reason }) });
      return "failed";
    }
    if (turn.retryCount > options.maxRetries) {
      const reason = `The run was retried ${turn.retryCount - 1} times after failed turns and gave up (last: ${turn.deferReason ?? "worker lost"})`;
      journal.recordNow({ type: "run.finished", result: failure("(run)", reason) }, "run.finished");
      await journal.end({ record: { outcome: "failed", reason }, ...runEnded(turn, snapshot, { failure: reason }) });
      return "failed";
    }

    const definition = snapshot.definition as WorkflowDefinition;
    // A failed read is an outage, retried like any transient failure of the turn.
    const models = options.machineFor || !options.loadModels ? undefined : await options.loadModels();
    let result: MachineResult;
    try {
      const machine = options.machineFor
        ? options.machineFor(definition, snapshot)
        : compileWorkflow(definitionForRun(definition, snapshot.keyed.get(CASE_LEDGER_KEY)), {
            ...options.compile,
            models,
            onToken: liveCall.onToken,
            generatorOverride: snapshot.generatorOverride,
            contextValues: snapshot.contextValues,
            // A fork carries its edit in its ledger (see services/runs/fork-run.ts).
            editedAttempt: readAttemptEdit(snapshot.keyed.get(FORK_LEDGER_KEY)),
          });
      // abortable: a port that ignores the signal still cannot keep the turn (and its slot) waiting.
      result = await abortable(runMachine(machine, {
        specification: snapshot.specification,
        constraints: definition.constraints,
        dag: journal.dag,
        observer: telemetry ? telemetry.observer(journal.observer, (key) => snapshot.keyed.has(`event:${key}`)) : journal.observer,
        calls: telemetry ? telemetry.calls(liveCall.ledger(journal.calls)) : liveCall.ledger(journal.calls),
        contextOverrides: snapshot.contextValues,
        newId: (key) => (key === undefined ? randomUUID() : derivedId(turn.runId, key)),
        signal: stop.signal,
        identity: { runId: turn.runId, workflow: definition.name },
      }), stop.signal);
    } catch (error) {
      if (isToolsPending(error)) {
        // 003 section 3.3: the turn suspends on its waiting set and holds no worker; reports resume it.
        const waits = error.waits;
        journal.append("dualstate", "tools.waiting", { calls: waits.map((wait) => ({ tool: wait.tool, kind: wait.kind, step: wait.stepName, attempt: wait.attempt })) });
        await journal.end({ head: { status: "suspended" }, waits, record: { outcome: "suspended", reason: waitingReason(error), detail: { calls: waits.map((wait) => wait.tool) } } });
        options.crashAt?.("tools-waiting");
        return "suspended";
      }
      if (!isPermanent(error)) throw error;
      const reason = `The run cannot execute: ${error instanceof Error ? error.message : String(error)}`;
      journal.recordNow({ type: "run.finished", result: failure("(run)", reason) }, "run.finished");
      await journal.end({ record: { outcome: "failed", reason }, ...runEnded(turn, snapshot, { failure: reason }) });
      return "failed";
    }
    if (result.status === "escalation") {
      // The deadline is the database's clock plus the timeout, computed in the commit itself.
      await journal.end({
        head: { resumeDeadline: { afterMs: options.escalationTimeoutMs } },
        escalationExpiresAfterMs: options.escalationTimeoutMs,
        record: { outcome: "suspended", reason: `waiting for a person's decision on step ${result.failedStep}` },
      });
      return "suspended";
    }
    const succeeded = result.status === "success";
    await journal.end({
      head: { resumeDeadline: null },
      record: result.status === "success" ? { outcome: "succeeded", detail: deliverableOf(result) } : { outcome: "failed", reason: `step ${result.failedStep}: ${result.reason}` },
      ...runEnded(turn, snapshot, { result }),
    });
    return succeeded ? "succeeded" : "failed";
  } catch (error) {
    if (isLeaseLost(error)) lease.markLost();
    if (journal && loaded && isBudgetStop(stop.signal.reason) && !lease.lost) return budgetStopped(store, journal, turn, loaded, stop.signal.reason, options);
    if (stop.signal.aborted) return stopped(store, turn, stop.signal.reason, options);
    if (isLeaseLost(error)) return "lost";
    // Transient (the database went away, a bug in a guard's process handling...): back to the
    // inbox with backoff; the replay makes the retry pick up where this turn got to.
    const reason = error instanceof Error ? error.message : String(error);
    options.log?.(`run ${turn.runId}: turn of epoch ${turn.epoch} failed, deferring: ${reason}`);
    try {
      await store.deferTurn(turn, reason, backoffMs(turn.retryCount + 1));
      return "deferred";
    } catch {
      // The database is unreachable or the run was taken over: the lease expires and the watchdog reclaims it.
      return "lost";
    }
  } finally {
    signal?.removeEventListener("abort", relay);
    lease.stop();
    // A call cut short (a crash of the model client, a lost lease) leaves no stale preview behind.
    await liveCall.settle();
  }
}

/** What a run's end adds to its last commit: close what it still waits for, and report to its parent if it is a sub-run. */
function runEnded(turn: ClaimedTurn, snapshot: TurnSnapshot, ending: { readonly result: WorkflowResult } | { readonly failure: string }): { closeWaits?: boolean; parentReport?: ParentReport } {
  return {
    ...(snapshot.hasToolWaits ? { closeWaits: true } : {}),
    ...(snapshot.parentRunId && snapshot.parentCallId ? { parentReport: { parentRunId: snapshot.parentRunId, callId: snapshot.parentCallId, result: subRunResult(turn.runId, ending) } } : {}),
  };
}

/** A succeeded turn's deliverable: which artifacts, by their content hash (the contents are in the DAG). */
function deliverableOf(result: WorkflowResult): { artifacts: Record<string, string> } {
  return { artifacts: Object.fromEntries(Object.entries(result.artifacts).map(([guardId, artifact]) => [guardId, artifact.contentHash])) };
}

function waitingReason(error: ToolsPendingError): string {
  return `waiting for ${error.waits.map((wait) => `${wait.tool} (${wait.kind})`).join(", ")}`;
}

/**
 * A run that reached its budget before a model call: it fails with the crossing as its reason,
 * or suspends on a budget escalation (no artifact: a person grants more or refuses) that expires
 * like any other. A failure to commit goes the way of any failed turn (deferred, replayed).
 */
async function budgetStopped(store: DurableStore, journal: TurnJournal, turn: ClaimedTurn, snapshot: TurnSnapshot, stop: BudgetStop, options: TurnOptions): Promise<TurnOutcome> {
  try {
    journal.append("dualstate", "budget.reached", { action: stop.action, decisionKey: stop.decisionKey, step: stop.stepName, ...stop.crossing });
    if (stop.action === "fail") {
      journal.recordNow({ type: "run.finished", result: failure(stop.stepName, stop.message) }, "run.finished");
      await journal.end({ head: { resumeDeadline: null }, record: { outcome: "failed", reason: stop.message }, ...runEnded(turn, snapshot, { failure: stop.message }) });
      return "failed";
    }
    journal.escalate({ kind: "budget", artifactId: null, stepName: stop.stepName, guardId: "budget", feedback: stop.message, decisionKey: stop.decisionKey });
    await journal.end({
      head: { status: "suspended", currentStep: stop.stepName, resumeDeadline: { afterMs: options.escalationTimeoutMs } },
      escalationExpiresAfterMs: options.escalationTimeoutMs,
      record: { outcome: "suspended", reason: `waiting for a person to grant more budget (${stop.message})` },
    });
    return "suspended";
  } catch (error) {
    if (isLeaseLost(error)) return "lost";
    const reason = error instanceof Error ? error.message : String(error);
    try {
      await store.deferTurn(turn, reason, backoffMs(turn.retryCount + 1));
      return "deferred";
    } catch {
      return "lost";
    }
  }
}

/**
 * Where a stopped turn leaves its run. Cancel and a lost lease: nothing is written (the cancel's
 * turn, or the new owner, goes on). Shutdown: back to the inbox, due at once, so another worker
 * resumes the run from its ledger.
 */
async function stopped(store: DurableStore, turn: ClaimedTurn, reason: unknown, options: TurnOptions): Promise<TurnOutcome> {
  if (!isTurnStopped(reason) || reason.reason !== "shutdown") return "lost";
  options.log?.(`run ${turn.runId}: turn of epoch ${turn.epoch} stopped by the worker's shutdown; handed back to the inbox`);
  try {
    // Not a retry: the run did nothing wrong, so a few deploys in a row cannot use up its retries.
    await store.deferTurn(turn, `worker ${turn.workerId} shut down during the turn`, 0, false);
    return "deferred";
  } catch {
    return "lost";
  }
}
