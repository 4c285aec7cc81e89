import { executeActionPair } from "../domain/action-pair";
import { createArtifact, type Artifact } from "../domain/artifact";
import type { CallLedger } from "../ports/call-ledger";
import { isEngineError } from "../errors";
import { composeContext, refineContext, type AmbientEnvironment } from "../domain/context";
import { satisfy, type WorkflowState } from "../domain/workflow-state";
import type { ProvenanceEntry } from "../domain/workflow-result";
import type { ArtifactDag } from "../ports/artifact-dag";
import type { GuardDependencies } from "../ports/guard";
import type { IdGenerator } from "../ports/ids";
import type { RunObserver } from "../ports/run-observer";
import { dependencyIdsOf, type WorkflowStep } from "./step";

export interface AgentInput {
  readonly step: WorkflowStep;
  readonly rmax: number;
  readonly specification: string;
  readonly ambient: AmbientEnvironment;
  readonly workflowState: WorkflowState;
  readonly dependencies: GuardDependencies;
  readonly dag: ArtifactDag;
  readonly observer: RunObserver;
  readonly newId: IdGenerator;
  readonly calls: CallLedger;
  /** Context variables at the start of the step, handed to the generator for prompt variables. */
  readonly variables?: Readonly<Record<string, boolean | number | string>>;
}

/**
 * How one step ended. `passed` carries the advanced workflow state; the other two leave it
 * untouched (000 Definition 4), which is why they carry none.
 */
export type AgentOutcome =
  | { readonly kind: "passed"; readonly artifact: Artifact; readonly workflowState: WorkflowState; readonly attempts: number }
  | { readonly kind: "escalation"; readonly artifact: Artifact; readonly feedback: string; readonly attempts: number }
  | { readonly kind: "exhausted"; readonly provenance: readonly ProvenanceEntry[]; readonly attempts: number }
  | { readonly kind: "generation_failed"; readonly reason: string; readonly provenance: readonly ProvenanceEntry[]; readonly attempts: number };

/** Lets a generator try a draft on the step's non-fatal guards; never on the real attempt's record. */
function draftChecker(step: WorkflowStep, dependencies: GuardDependencies) {
  const guard = step.draftGuard;
  if (!guard) return undefined;
  return (content: string) => guard.validate(createArtifact({ id: `${step.name}/draft`, content, version: 0, parentId: null }), dependencies);
}

/**
 * The Dual-State Agent's retry loop for one step (001 `DualStateAgent.execute`): up to rmax + 1
 * attempts, each stored in the DAG with its verdict. A failure refines the context; a fatal
 * verdict escalates at once without another generator call.
 */
export async function runDualStateAgent(input: AgentInput): Promise<AgentOutcome> {
  const { step, rmax, dag, observer } = input;
  const dependencyIds = dependencyIdsOf(input.dependencies);
  let context = composeContext(input.ambient, input.specification);
  const failures: ProvenanceEntry[] = [];
  let parentId: string | null = null;

  for (let retries = 0; retries <= rmax; retries++) {
    const attempt = retries + 1;
    let outcome;
    try {
      outcome = await executeActionPair(
        step.actionPair,
        input.workflowState,
        context,
        input.dependencies,
        { stepName: step.name, artifactId: input.newId(), attempt, parentId },
        { calls: input.calls, callKey: `${step.name}/attempt-${attempt}`, checkDraft: draftChecker(step, input.dependencies), variables: input.variables },
      );
    } catch (error) {
      // A generator that failed for good is a step failure with a reason, not a crash.
      if (!isEngineError(error, "GENERATION_FAILED")) throw error;
      return { kind: "generation_failed", reason: error.message, provenance: failures, attempts: attempt };
    }
    const { artifact, result, generation } = outcome;
    await dag.store({ artifact, stepName: step.name, guardId: step.guardId, result, dependencyIds, language: step.language ?? null });
    await observer.record({
      type: "generator.completed",
      step: step.name,
      attempt,
      artifactId: artifact.id,
      contentHash: artifact.contentHash,
      metadata: generation.metadata ?? {},
    });
    await observer.record({ type: "guard.completed", step: step.name, attempt, artifactId: artifact.id, result });

    if (result.passed) {
      const workflowState = satisfy(input.workflowState, step.guardId, artifact.id);
      return { kind: "passed", artifact, workflowState, attempts: attempt };
    }
    if (result.fatal) {
      return { kind: "escalation", artifact, feedback: result.feedback, attempts: attempt };
    }
    failures.push({ artifact, feedback: result.feedback });
    context = refineContext(context, artifact.content, result.feedback);
    parentId = artifact.id;
  }
  return { kind: "exhausted", provenance: failures, attempts: failures.length };
}
