import type { Artifact } from "../domain/artifact";
import type { AmbientEnvironment } from "../domain/context";
import { initialWorkflowState, type WorkflowState } from "../domain/workflow-state";
import type { WorkflowResult } from "../domain/workflow-result";
import type { ArtifactDag } from "../ports/artifact-dag";
import type { GuardDependencies } from "../ports/guard";
import { randomIds, type IdGenerator } from "../ports/ids";
import { silentObserver, type RunObserver } from "../ports/run-observer";
import { misconfiguredReason, runDualStateAgent } from "./dual-state-agent";
import type { CallLedger } from "../ports/call-ledger";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { InvalidWorkflowError } from "../errors";
import { dependencyIdsOf, dependencyName, type WorkflowStep } from "./step";

export const DEFAULT_RMAX = 3;

export interface WorkflowRun {
  readonly steps: readonly WorkflowStep[];
  readonly specification: string;
  readonly dag: ArtifactDag;
  /** Default retry budget for steps without their own. */
  readonly rmax?: number;
  /** Ω, the global constraints every prompt sees under # CONTEXT. */
  readonly constraints?: string;
  readonly observer?: RunObserver;
  readonly newId?: IdGenerator;
  /** The run's call ledger; a fresh in-memory one when the run is not persisted. */
  readonly calls?: CallLedger;
}

/**
 * Runs the steps in order (001 `Workflow.execute`): checks each precondition, hands each guard
 * only the artifacts named in guard_artifact_deps, and stops at the first failure or escalation.
 */
export async function executeWorkflow(run: WorkflowRun): Promise<WorkflowResult> {
  assertRunnable(run);
  const observer = run.observer ?? silentObserver;
  const newId = run.newId ?? randomIds;
  const calls = run.calls ?? new MemoryCallLedger();
  const ambient: AmbientEnvironment = Object.freeze({ repository: run.dag, constraints: run.constraints ?? "" });
  const artifacts: Record<string, Artifact> = {};
  let state: WorkflowState = initialWorkflowState;

  await observer.record({ type: "run.started", specification: run.specification });
  const finish = async (result: WorkflowResult): Promise<WorkflowResult> => {
    await observer.record({ type: "run.finished", result });
    return result;
  };

  for (const step of run.steps) {
    if (!step.actionPair.precondition(state)) {
      return finish({
        status: "failed",
        artifacts: { ...artifacts },
        failedStep: step.name,
        reason: `Precondition not met for step "${step.name}"`,
        provenance: [{ artifact: null, feedback: "Precondition not met" }],
      });
    }
    const dependencies = extractDependencies(step.guardArtifactDeps, artifacts);
    const dependencyIds = dependencyIdsOf(dependencies);
    await observer.record({ type: "step.started", step: step.name, guardId: step.guardId, dependencyIds });

    const outcome = await runDualStateAgent({
      step,
      rmax: step.rmax ?? run.rmax ?? DEFAULT_RMAX,
      specification: run.specification,
      ambient,
      workflowState: state,
      dependencies,
      dag: run.dag,
      observer,
      newId,
      calls,
    });

    switch (outcome.kind) {
      case "passed":
        state = outcome.workflowState;
        artifacts[step.guardId] = outcome.artifact;
        await observer.record({ type: "state.advanced", step: step.name, guardId: step.guardId, artifactId: outcome.artifact.id, workflowState: state });
        break;
      case "escalation":
        await observer.record({ type: "step.escalated", step: step.name, guardId: step.guardId, artifactId: outcome.artifact.id, feedback: outcome.feedback });
        return finish({
          status: "escalation",
          artifacts: { ...artifacts },
          failedStep: step.name,
          escalationArtifact: outcome.artifact,
          escalationFeedback: outcome.feedback,
        });
      case "exhausted":
        await observer.record({ type: "step.exhausted", step: step.name, attempts: outcome.attempts });
        return finish({
          status: "failed",
          artifacts: { ...artifacts },
          failedStep: step.name,
          reason: `Step "${step.name}" failed after ${outcome.attempts} attempts (retry budget exhausted)`,
          provenance: outcome.provenance,
        });
      case "generation_failed":
        return finish({
          status: "failed",
          artifacts: { ...artifacts },
          failedStep: step.name,
          reason: `Step "${step.name}" could not generate attempt ${outcome.attempts}: ${outcome.reason}`,
          provenance: outcome.provenance,
        });
      case "misconfigured":
        return finish({
          status: "failed",
          artifacts: { ...artifacts },
          failedStep: step.name,
          reason: misconfiguredReason(step.name, outcome),
          provenance: outcome.provenance,
        });
      case "rejected":
        return finish({ status: "failed", artifacts: { ...artifacts }, failedStep: step.name, reason: outcome.reason, provenance: [{ artifact: outcome.artifact, feedback: outcome.reason }] });
      default:
        return assertNever(outcome);
    }
  }
  return finish({ status: "success", artifacts: { ...artifacts } });
}

/** Rejects budgets that would make no attempt at all, before anything is generated or stored. */
function assertRunnable(run: WorkflowRun): void {
  const isBudget = (rmax: number) => Number.isInteger(rmax) && rmax >= 0;
  if (run.rmax !== undefined && !isBudget(run.rmax)) throw new InvalidWorkflowError(`rmax must be a whole number ≥ 0, got ${run.rmax}`);
  for (const step of run.steps) {
    if (step.rmax !== undefined && !isBudget(step.rmax)) throw new InvalidWorkflowError(`Step "${step.name}": rmax must be a whole number ≥ 0, got ${step.rmax}`);
  }
}

/** extract_dependencies of 000: the artifacts of completed steps named in guard_artifact_deps, and nothing else. */
export function extractDependencies(depGuardIds: readonly string[], artifacts: Readonly<Record<string, Artifact>>): GuardDependencies {
  const dependencies: Record<string, Artifact> = {};
  for (const guardId of depGuardIds) {
    const artifact = artifacts[guardId];
    if (artifact) dependencies[dependencyName(guardId)] = artifact;
  }
  return Object.freeze(dependencies);
}

function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
