import type { ActionPair } from "../domain/action-pair";
import type { Guard } from "../ports/guard";

/** One workflow step (001 `WorkflowStep`): an action pair, the guard id it satisfies, and its scoped dependencies. */
export interface WorkflowStep {
  readonly name: string;
  readonly guardId: string;
  readonly actionPair: ActionPair;
  /** Guard ids whose artifacts this step's guard receives ("g_test" is handed over as "test"). */
  readonly guardArtifactDeps: readonly string[];
  /** Retry budget Rmax for this step; the workflow's default when absent. */
  readonly rmax?: number;
  /** Language of the artifacts, kept with them for display and guards. */
  readonly language?: string;
  /** The step's non-fatal guards, which a generator may use to check drafts before answering. */
  readonly draftGuard?: Guard;
}

/** The name a dependency is handed to a guard under: the guard id without its "g_" prefix (001). */
export function dependencyName(guardId: string): string {
  return guardId.startsWith("g_") ? guardId.slice(2) : guardId;
}

/** Dependency name → artifact id, the form the DAG and the ledger keep. */
export function dependencyIdsOf(dependencies: Readonly<Record<string, { readonly id: string }>>): Record<string, string> {
  return Object.fromEntries(Object.entries(dependencies).map(([name, artifact]) => [name, artifact.id]));
}
