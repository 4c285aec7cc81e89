import type { CallLedger, RunObserver } from "../engine";
import type { ClaimOutcome, GuardVerdict, WorkerMetrics } from "./metrics/worker-metrics";
import type { RunTracing } from "./otel-tracing";
import type { TracedOutcome, TracedTurn } from "./turn-trace";

/** What one turn reports to telemetry, through the ports it already writes through. */
export interface TurnTelemetry {
  /** `inner` observed; `isReplayed(key)` says whether an earlier turn recorded the event (then it is not new work). */
  observer(inner: RunObserver, isReplayed: (key: string) => boolean): RunObserver;
  calls(inner: CallLedger): CallLedger;
  /** The run's pinned definition, read as stored: its name names the run's spans. */
  setWorkflow(definition: unknown): void;
  /** Never throws. */
  end(outcome: TracedOutcome, error?: unknown): Promise<void>;
}

/** A worker's traces and metrics; absent when neither is configured, and then a turn does nothing extra. */
export interface WorkerTelemetry {
  /** Waits for the SDK on the first turn only (tracing-from-env.ts). */
  startTurn(turn: TracedTurn): Promise<TurnTelemetry>;
  claimed(seconds: number, outcome: ClaimOutcome): void;
}

export function workerTelemetry(parts: { readonly tracing?: RunTracing | Promise<RunTracing | undefined>; readonly metrics?: WorkerMetrics }): WorkerTelemetry | undefined {
  const { tracing, metrics } = parts;
  if (!tracing && !metrics) return undefined;
  return {
    claimed: (seconds, outcome) => metrics?.claims.observe(outcome, seconds),
    async startTurn(turn) {
      const trace = (await tracing)?.startTurn(turn);
      return {
        observer(inner, isReplayed) {
          const traced = trace ? trace.observer(inner, isReplayed) : inner;
          return metrics ? timedGuards(traced, isReplayed, metrics) : traced;
        },
        calls: (inner) => (trace ? trace.calls(inner) : inner),
        setWorkflow: (definition) => {
          const name = typeof definition === "object" && definition !== null && "name" in definition ? definition.name : undefined;
          if (typeof name === "string" && name) trace?.setWorkflow(name.slice(0, 200));
        },
        end: async (outcome, error) => {
          await trace?.end(outcome, error).catch(() => {});
        },
      };
    },
  };
}

/** Records each new verdict's duration, as the guard library measured it (GuardResult.durationMs). */
function timedGuards(inner: RunObserver, isReplayed: (key: string) => boolean, metrics: WorkerMetrics): RunObserver {
  return {
    record: async (event, key) => {
      const replayed = key !== undefined && isReplayed(key);
      await inner.record(event, key);
      if (replayed || event.type !== "guard.completed" || event.result.durationMs === undefined) return;
      const verdict: GuardVerdict = event.result.passed ? "passed" : event.result.fatal ? "fatal" : "failed";
      metrics.guards.observe(verdict, event.result.durationMs / 1000);
    },
    ...(inner.recall ? { recall: (key: string) => inner.recall!(key) } : {}),
  };
}
