import type { GuardResult } from "../domain/guard-result";
import type { WorkflowState } from "../domain/workflow-state";
import type { WorkflowResult } from "../domain/workflow-result";
import type { UnguardedStepKind } from "../domain/step-kind";

/**
 * What the engine reports while it runs, in order. Persistence turns these into ledger entries
 * and run progress; the engine itself never writes anywhere but the ArtifactDag.
 */
export type EngineEvent =
  | { readonly type: "run.started"; readonly specification: string }
  | {
      readonly type: "step.started";
      readonly step: string;
      readonly guardId: string;
      /** Dependency name → artifact id handed to this step's guard. */
      readonly dependencyIds: Readonly<Record<string, string>>;
      /** The machine state the step runs in (absent for 001's sequential workflows). */
      readonly state?: string;
    }
  /** An llm, transition or code step of a state machine starts (an action pair's start carries its guard instead). */
  | { readonly type: "step.started"; readonly step: string; readonly kind: UnguardedStepKind; readonly state?: string }
  | {
      readonly type: "generator.completed";
      readonly step: string;
      readonly attempt: number;
      readonly artifactId: string;
      readonly contentHash: string;
      readonly metadata: Readonly<Record<string, unknown>>;
    }
  | {
      readonly type: "guard.completed";
      readonly step: string;
      readonly attempt: number;
      readonly artifactId: string;
      readonly result: GuardResult;
    }
  | {
      readonly type: "state.advanced";
      readonly step: string;
      readonly guardId: string;
      readonly artifactId: string;
      readonly workflowState: WorkflowState;
    }
  | {
      readonly type: "step.escalated";
      readonly step: string;
      readonly guardId: string;
      readonly artifactId: string;
      readonly feedback: string;
      /** Where a person's decision is recorded for the resumed run to read (absent outside runMachine). */
      readonly decisionKey?: string;
    }
  | { readonly type: "step.exhausted"; readonly step: string; readonly attempts: number }
  /** An attempt of an llm, transition or code step failed; the step retries or on_failure decides. */
  | {
      readonly type: "step.attempt_failed";
      readonly step: string;
      readonly kind: UnguardedStepKind;
      readonly attempt: number;
      readonly reason: string;
      /** The failed attempt in the DAG (its answer, if any, with the reason as feedback). */
      readonly artifactId?: string;
    }
  | {
      /** An llm, transition or code step of a state machine finished: what it produced. */
      readonly type: "step.completed";
      readonly step: string;
      readonly kind: UnguardedStepKind;
      /** The step's output: the answer, the chosen transition_map key, or the JSON of the variables set. */
      readonly output?: string;
      /** The output's artifact in the DAG. */
      readonly artifactId?: string;
      /** The machine state the step ran in. */
      readonly state?: string;
      /** A transition step's decision: the state its answer chose. */
      readonly to?: string;
      /** The prompt an llm or transition step's answer was generated from, when its generator said. */
      readonly prompt?: string;
      readonly updates?: Readonly<Record<string, boolean | number | string>>;
    }
  /** `state`: the machine state the run ended in (absent for 001's sequential workflows). */
  | { readonly type: "run.finished"; readonly result: WorkflowResult; readonly state?: string }
  /** The run waits for a person's decision on an escalation; it is not finished. */
  | { readonly type: "run.suspended"; readonly result: WorkflowResult; readonly state?: string };

export type EngineEventType = EngineEvent["type"];

export interface RunObserver {
  /**
   * Awaited before the engine goes on, so a stored event is never ahead of stored state. `key`
   * is unique in the run ("implement/attempt-1/verdict"); a durable store records each key once,
   * so a resumed run that replays its turns adds nothing it already has.
   */
  record(event: EngineEvent, key?: string): Promise<void>;
  /**
   * The payload recorded under `key` by an earlier turn, if any: how a resumed run reads back
   * verdicts, step outputs and decisions instead of computing them again. Absent: nothing recalls.
   */
  recall?(key: string): Promise<Readonly<Record<string, unknown>> | undefined>;
}

export const silentObserver: RunObserver = { record: async () => {} };
