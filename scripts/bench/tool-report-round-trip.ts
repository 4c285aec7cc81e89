/**
 * Issue 18's suspend → report → resume round trip: a run whose step calls a tool that waits
 * (server/worker/testing/waiting-tool-machine.ts: a policy that calls one external tool) is
 * executed by the bench's worker until it suspends; an outside process reports the call's
 * result (DurableStore.reportToolResult); the worker, idle on its doorbell, resumes the run.
 * Timed per round trip: the suspending turn (claim → its suspension commit), the report's own
 * transaction, and report → the resumed turn's state.advanced commit.
 */
import { passed, type Guard, type MachineStep, type WorkflowMachine } from "../../server/engine";
import type { DurableStore } from "../../server/durable/durable-store";
import type { ClaimedTurn, TurnBatch } from "../../server/durable/types";
import type { Doorbell } from "../../server/durable/doorbell";
import type { TurnOutcome } from "../../server/worker/execute-turn";
import { definitionOf, PARENT_YAML, waitingMachineFor, type WaitingToolPlan } from "../../server/worker/testing/waiting-tool-machine";
import type { WorkflowDefinition } from "../../server/workflows/definition";
import { IDLE_BEFORE_DECISION_MS } from "./physical-limit";

/** The waiting workflow's name, for the bench's machineFor to tell its runs apart. */
export const ROUND_TRIP_WORKFLOW = definitionOf(PARENT_YAML).name;

const plan: WaitingToolPlan = { kind: "external", deadlineAfterMs: 3_600_000, entered: { count: 0 } };
const machine = waitingMachineFor(plan);

/** Accepts the artifact: the round trip measures the protocol, not a guard (the workflow's json_schema guard compiles its schema per check). */
const acceptingGuard: Guard = { validate: async () => passed() };

/** The machine for a round-trip run (the bench's own workflow keeps its own). */
export function roundTripMachine(definition: WorkflowDefinition): WorkflowMachine {
  const compiled = machine(definition);
  return { ...compiled, steps: compiled.steps.map((step): MachineStep => (step.kind === "action_pair" ? { ...step, actionPair: { ...step.actionPair, guard: acceptingGuard } } : step)) };
}

export function roundTripDefinition(): WorkflowDefinition {
  return definitionOf(PARENT_YAML);
}

export interface RoundTrips {
  readonly samples: number;
  /** Medians, ms. */
  readonly suspendMs: number;
  readonly reportMs: number;
  readonly resumeMs: number;
  readonly totalMs: number;
}

interface WorkerSide {
  onCommitted?: (turn: ClaimedTurn, batch: TurnBatch, at: number, started: number) => void;
  readonly claimStarted: Map<string, number>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function measureRoundTrips(
  provider: "sqlite" | "postgres",
  outside: DurableStore,
  worker: WorkerSide,
  doorbell: Doorbell,
  versionId: string,
  nextTurn: (runId: string) => Promise<TurnOutcome>,
  rounds: number,
): Promise<RoundTrips> {
  // As for decisions: on SQLite the reporting web server rings its embedded worker; PostgreSQL NOTIFYs.
  outside.onMessage = provider === "sqlite" ? () => doorbell.ring() : undefined;
  const parts = { suspend: [] as number[], report: [] as number[], resume: [] as number[], total: [] as number[] };
  try {
    for (let i = 0; i < rounds + 3; i++) {
      let suspendedAt = 0;
      let advancedAt = 0;
      let advanced: () => void = () => {};
      const advancedCommit = new Promise<void>((resolve) => (advanced = resolve));
      const { runId } = await outside.enqueueRun({ workflowVersionId: versionId, specification: `round trip ${i}` });
      worker.onCommitted = (turn, batch, at) => {
        if (turn.runId !== runId) return;
        if (batch.waits && batch.waits.length > 0) suspendedAt = at;
        if (batch.ledger.some((row) => row.type === "state.advanced")) {
          advancedAt = at;
          advanced();
        }
      };
      const first = await nextTurn(runId);
      if (first !== "suspended") throw new Error(`round trip ${i}: the run ended its first turn ${first}, expected suspended`);
      const suspendTurnMs = suspendedAt - (worker.claimStarted.get(runId) ?? Number.NaN);
      const [wait] = await outside.sql.query<{ id: string }>(`SELECT "id" FROM "ToolWait" WHERE "runId" = ? AND "status" = 'waiting'`, [runId]);
      if (!wait) throw new Error(`round trip ${i}: the suspended run has no waiting call`);
      // The worker is idle on its doorbell, as it is while the outside system works.
      await new Promise((resolve) => setTimeout(resolve, IDLE_BEFORE_DECISION_MS));
      const resumed = nextTurn(runId);
      const reporting = performance.now();
      const outcome = await outside.reportToolResult({ runId, callId: wait.id, result: { url: `https://preview/${i}` }, reportedBy: "bench" });
      const reported = performance.now();
      if (!outcome.applied || !outcome.resumed) throw new Error(`round trip ${i}: the report did not resume the run (${JSON.stringify(outcome)})`);
      await advancedCommit;
      const last = await resumed;
      if (last !== "succeeded") throw new Error(`round trip ${i}: the resumed run ended ${last}, expected succeeded`);
      if (i < 3) continue; // warming up the statements of this path
      parts.suspend.push(suspendTurnMs);
      parts.report.push(reported - reporting);
      parts.resume.push(advancedAt - reported);
      parts.total.push(suspendTurnMs + (advancedAt - reporting));
    }
  } finally {
    worker.onCommitted = undefined;
    outside.onMessage = undefined;
  }
  return { samples: parts.total.length, suspendMs: median(parts.suspend), reportMs: median(parts.report), resumeMs: median(parts.resume), totalMs: median(parts.total) };
}
