import type { GuardResult } from "../domain/guard-result";
import type { WorkflowState } from "../domain/workflow-state";
import type { WorkflowResult } from "../domain/workflow-result";

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
    }
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
  | { readonly type: "step.escalated"; readonly step: string; readonly guardId: string; readonly artifactId: string; readonly feedback: string }
  | { readonly type: "step.exhausted"; readonly step: string; readonly attempts: number }
  | { readonly type: "run.finished"; readonly result: WorkflowResult };

export type EngineEventType = EngineEvent["type"];

export interface RunObserver {
  /** Awaited before the engine goes on, so a stored event is never ahead of stored state. */
  record(event: EngineEvent): Promise<void>;
}

export const silentObserver: RunObserver = { record: async () => {} };
