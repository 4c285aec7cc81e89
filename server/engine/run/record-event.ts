import type { EngineEvent } from "../ports/run-observer";
import type { WorkflowState } from "../domain/workflow-state";
import type { LedgerActor, RunResultSummary, RunStatus } from "./run-record";
import { summarizeResult } from "./summarize-result";

/** Changes one event makes to its run; counters are increments so concurrent readers never see them go back. */
export interface RunPatch {
  readonly status?: RunStatus;
  readonly workflowState?: WorkflowState;
  readonly currentStep?: string | null;
  /** The state machine's state, when the event says (a run that finished or suspended). */
  readonly currentState?: string;
  readonly attemptIncrement?: number;
  readonly stepsCompletedIncrement?: number;
  readonly result?: RunResultSummary;
  readonly startedAt?: Date;
  readonly finishedAt?: Date;
}

export interface EscalationDraft {
  readonly artifactId: string;
  readonly stepName: string;
  readonly guardId: string;
  readonly feedback: string;
  /** The ledger key the decision on this escalation is recorded under. */
  readonly decisionKey?: string;
}

/** Everything a repository writes, atomically, for one engine event. */
export interface EventRecord {
  readonly ledger: { readonly actor: LedgerActor; readonly type: string; readonly payload: Readonly<Record<string, unknown>> };
  readonly patch: RunPatch;
  readonly escalation?: EscalationDraft;
}

const FINAL_STATUS = { success: "succeeded", failed: "failed", escalation: "escalated" } as const satisfies Record<string, RunStatus>;

/**
 * Pure translation of an engine event into a ledger entry and a run patch. Every repository
 * uses it, so the in-memory, SQLite and PostgreSQL stores record runs identically.
 */
export function recordEvent(event: EngineEvent, now: Date): EventRecord {
  switch (event.type) {
    case "run.started":
      return {
        ledger: { actor: "engine", type: event.type, payload: { specification: event.specification } },
        patch: { status: "running", startedAt: now },
      };
    case "step.started":
      return {
        ledger: {
          actor: "engine",
          type: event.type,
          payload: {
            ...("kind" in event ? { step: event.step, kind: event.kind } : { step: event.step, guardId: event.guardId, dependencyIds: event.dependencyIds }),
            ...(event.state !== undefined ? { state: event.state } : {}),
          },
        },
        patch: { currentStep: event.step },
      };
    case "generator.completed":
      return {
        ledger: { actor: "generator", type: event.type, payload: { step: event.step, attempt: event.attempt, artifactId: event.artifactId, contentHash: event.contentHash, metadata: event.metadata } },
        patch: { attemptIncrement: 1 },
      };
    case "guard.completed":
      return {
        ledger: {
          actor: "guard",
          type: event.type,
          payload: { step: event.step, attempt: event.attempt, artifactId: event.artifactId, ...event.result },
        },
        patch: {},
      };
    case "state.advanced":
      return {
        ledger: { actor: "engine", type: event.type, payload: { step: event.step, guardId: event.guardId, artifactId: event.artifactId } },
        patch: { workflowState: event.workflowState, stepsCompletedIncrement: 1 },
      };
    case "step.escalated": {
      const decisionKey = event.decisionKey ? { decisionKey: event.decisionKey } : {};
      return {
        ledger: { actor: "engine", type: event.type, payload: { step: event.step, guardId: event.guardId, artifactId: event.artifactId, feedback: event.feedback, ...decisionKey } },
        patch: {},
        escalation: { artifactId: event.artifactId, stepName: event.step, guardId: event.guardId, feedback: event.feedback, ...decisionKey },
      };
    }
    case "step.completed":
      return {
        ledger: {
          actor: "engine",
          type: event.type,
          payload: {
            step: event.step,
            kind: event.kind,
            ...(event.output !== undefined ? { output: event.output } : {}),
            ...(event.artifactId !== undefined ? { artifactId: event.artifactId } : {}),
            ...(event.state !== undefined ? { state: event.state } : {}),
            ...(event.to !== undefined ? { to: event.to } : {}),
            ...(event.prompt !== undefined ? { prompt: event.prompt } : {}),
            ...(event.updates ? { updates: event.updates } : {}),
          },
        },
        patch: { stepsCompletedIncrement: 1 },
      };
    case "run.suspended":
      return {
        ledger: { actor: "engine", type: event.type, payload: { ...summarizeResult(event.result), ...(event.state !== undefined ? { finalState: event.state } : {}) } },
        patch: { status: "suspended", currentStep: event.result.status === "success" ? null : event.result.failedStep, ...(event.state !== undefined ? { currentState: event.state } : {}) },
      };
    case "step.attempt_failed":
      return { ledger: { actor: "engine", type: event.type, payload: { step: event.step, kind: event.kind, attempt: event.attempt, reason: event.reason, ...(event.artifactId !== undefined ? { artifactId: event.artifactId } : {}) } }, patch: {} };
    case "step.exhausted":
      return { ledger: { actor: "engine", type: event.type, payload: { step: event.step, attempts: event.attempts } }, patch: {} };
    case "run.finished": {
      const result = summarizeResult(event.result);
      return {
        ledger: { actor: "engine", type: event.type, payload: { ...result, ...(event.state !== undefined ? { finalState: event.state } : {}) } },
        patch: {
          status: FINAL_STATUS[result.status],
          result,
          finishedAt: now,
          currentStep: result.failedStep,
          ...(event.state !== undefined ? { currentState: event.state } : {}),
        },
      };
    }
  }
}
