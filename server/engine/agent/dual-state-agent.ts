import { executeActionPair } from "../domain/action-pair";
import { createArtifact, type Artifact } from "../domain/artifact";
import type { CallLedger } from "../ports/call-ledger";
import { configurationErrorOf, isEngineError } from "../errors";
import { composeContext, refineContext, type AmbientEnvironment } from "../domain/context";
import { satisfy, type WorkflowState } from "../domain/workflow-state";
import type { ProvenanceEntry } from "../domain/workflow-result";
import type { ArtifactDag } from "../ports/artifact-dag";
import type { GuardDependencies } from "../ports/guard";
import type { IdGenerator } from "../ports/ids";
import type { RunObserver } from "../ports/run-observer";
import { dependencyIdsOf, type WorkflowStep } from "./step";
import type { GuardResult } from "../domain/guard-result";
import { attemptKeyOf, decisionKeyOf, editKeyOf } from "../domain/decision-keys";
import { parseDecision } from "./decision";
import { withAttempt } from "../domain/prompt-values";

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
  /**
   * Prefix of this visit's keys ("implement", or "implement#2" on a revisit): artifact ids, the
   * recorded verdicts a resumed run reads back, and the key a person's decision is written under.
   */
  readonly keyPrefix?: string;
  /** Context variables at the start of the step, handed to the generator for prompt variables. */
  readonly variables?: Readonly<Record<string, boolean | number | string>>;
  /** Built-in prompt variables and step outputs at the start of the step; each attempt adds its `attempt`. */
  readonly promptValues?: Readonly<Record<string, string>>;
  /** Aborts the step at once (see GenerationRequest.signal): nothing more is generated or recorded. */
  readonly signal?: AbortSignal;
}

/**
 * How one step ended. `passed` carries the advanced workflow state; the other two leave it
 * untouched (000 Definition 4), which is why they carry none.
 */
export type AgentOutcome =
  | { readonly kind: "passed"; readonly artifact: Artifact; readonly workflowState: WorkflowState; readonly attempts: number }
  | { readonly kind: "escalation"; readonly artifact: Artifact; readonly feedback: string; readonly attempts: number; readonly decisionKey: string }
  | { readonly kind: "rejected"; readonly artifact: Artifact; readonly reason: string; readonly attempts: number }
  | { readonly kind: "exhausted"; readonly provenance: readonly ProvenanceEntry[]; readonly attempts: number }
  | { readonly kind: "generation_failed"; readonly reason: string; readonly provenance: readonly ProvenanceEntry[]; readonly attempts: number }
  /** A guard or generator configuration error (StepConfigurationError): the step fails at once, whatever on_failure says. */
  | { readonly kind: "misconfigured"; readonly reason: string; readonly source: "workflow" | "server"; readonly provenance: readonly ProvenanceEntry[]; readonly attempts: number };

/** A misconfigured step's failure reason, saying where the fix belongs. */
export function misconfiguredReason(stepName: string, outcome: { readonly reason: string; readonly source: "workflow" | "server" }): string {
  const where = outcome.source === "server" ? "as this server is configured" : "as the workflow configures it";
  return `Step "${stepName}" cannot run ${where}: ${outcome.reason}`;
}

/** Lets a generator try a draft on the step's non-fatal guards; never on the real attempt's record. */
function draftChecker(step: WorkflowStep, dependencies: GuardDependencies, signal: AbortSignal | undefined) {
  const guard = step.draftGuard;
  if (!guard) return undefined;
  return (content: string) => guard.validate(createArtifact({ id: `${step.name}/draft`, content, version: 0, parentId: null }), dependencies, { signal });
}

/**
 * The Dual-State Agent's retry loop for one step (001 `DualStateAgent.execute`): up to rmax + 1
 * attempts, each stored in the DAG with its verdict. A failure refines the context; a fatal
 * verdict escalates at once without another generator call.
 */
export async function runDualStateAgent(input: AgentInput): Promise<AgentOutcome> {
  const { step, rmax, dag, observer } = input;
  const prefix = input.keyPrefix ?? step.name;
  const dependencyIds = dependencyIdsOf(input.dependencies);
  let context = composeContext(input.ambient, input.specification);
  const failures: ProvenanceEntry[] = [];
  let parentId: string | null = null;

  for (let retries = 0; retries <= rmax; retries++) {
    const attempt = retries + 1;
    const attemptKey = attemptKeyOf(prefix, attempt);
    input.signal?.throwIfAborted();
    // A resumed run reads back the attempts it already recorded: no generator call, no guard run.
    const recorded = await recallAttempt(input, attemptKey);
    let artifact: Artifact;
    let result: GuardResult;
    if (recorded) {
      ({ artifact, result } = recorded);
    } else {
      let outcome;
      try {
        outcome = await executeActionPair(
          step.actionPair,
          input.workflowState,
          context,
          input.dependencies,
          { stepName: step.name, artifactId: input.newId(attemptKey), attempt, parentId },
          { calls: input.calls, callKey: attemptKeyOf(step.name, attempt), attemptKey, checkDraft: draftChecker(step, input.dependencies, input.signal), variables: input.variables, promptValues: withAttempt(input.promptValues, attempt), signal: input.signal },
        );
      } catch (error) {
        // A generator that failed for good, or a guard or generator configured so that no attempt
        // can pass, is a step failure with a reason, not a crash; it spends no retry and is never
        // handed to the model as feedback.
        const misconfigured = configurationErrorOf(error);
        if (misconfigured) return { kind: "misconfigured", reason: misconfigured.reason, source: misconfigured.source, provenance: failures, attempts: attempt };
        if (!isEngineError(error, "GENERATION_FAILED")) throw error;
        return { kind: "generation_failed", reason: error.message, provenance: failures, attempts: attempt };
      }
      ({ artifact, result } = outcome);
      await dag.store({ artifact, stepName: step.name, guardId: step.guardId, result, dependencyIds, language: step.language ?? null });
      await observer.record(
        { type: "generator.completed", step: step.name, attempt, artifactId: artifact.id, contentHash: artifact.contentHash, metadata: outcome.generation.metadata ?? {} },
        `${attemptKey}/generated`,
      );
      await observer.record({ type: "guard.completed", step: step.name, attempt, artifactId: artifact.id, result }, `${attemptKey}/verdict`);
    }

    if (result.passed) {
      const workflowState = satisfy(input.workflowState, step.guardId, artifact.id);
      return { kind: "passed", artifact, workflowState, attempts: attempt };
    }
    let feedback = result.feedback;
    if (result.fatal) {
      const resolved = await resolveFatalVerdict(input, artifact, result.feedback, attemptKey, attempt);
      if (resolved.kind !== "retry") return resolved;
      // Rejected with feedback: the person's comment is this attempt's feedback, and the step retries.
      ({ artifact, feedback } = resolved);
    }
    failures.push({ artifact, feedback });
    context = refineContext(context, artifact.content, feedback);
    parentId = artifact.id;
  }
  return { kind: "exhausted", provenance: failures, attempts: failures.length };
}

/**
 * What a person decided on a fatal verdict (escalation). An edited artifact is a new attempt
 * artifact whose parent is the escalated one; it goes through the step's guard, and any failing
 * verdict on it escalates again (the reviewer sees the verdict on their own edit) until one passes,
 * is approved as is, or is rejected.
 */
async function resolveFatalVerdict(
  input: AgentInput,
  escalated: Artifact,
  escalatedFeedback: string,
  attemptKey: string,
  attempt: number,
): Promise<AgentOutcome | { readonly kind: "retry"; readonly artifact: Artifact; readonly feedback: string }> {
  let artifact = escalated;
  let feedback = escalatedFeedback;
  for (let key = attemptKey; ; key = editKeyOf(key)) {
    const decisionKey = decisionKeyOf(key);
    const decision = parseDecision(await input.observer.recall?.(decisionKey));
    if (!decision) return { kind: "escalation", artifact, feedback, attempts: attempt, decisionKey };
    switch (decision.kind) {
      case "approve":
        return { kind: "passed", artifact, workflowState: satisfy(input.workflowState, input.step.guardId, artifact.id), attempts: attempt };
      case "reject":
        return { kind: "rejected", artifact, reason: decision.reason, attempts: attempt };
      case "reject_with_feedback":
        return { kind: "retry", artifact, feedback: decision.feedback };
      case "edit_and_approve": {
        const edited = await checkEditedArtifact(input, artifact, decision.content, editKeyOf(key), attempt);
        if (edited.result.passed) {
          return { kind: "passed", artifact: edited.artifact, workflowState: satisfy(input.workflowState, input.step.guardId, edited.artifact.id), attempts: attempt };
        }
        artifact = edited.artifact;
        feedback = edited.result.feedback;
      }
    }
  }
}

/** Stores a reviewer's edit as a child of the artifact it replaces and runs the step's guard on it (once: a resumed turn reads the verdict back). */
async function checkEditedArtifact(input: AgentInput, parent: Artifact, content: string, editKey: string, attempt: number): Promise<{ artifact: Artifact; result: GuardResult }> {
  const recorded = await recallAttempt(input, editKey);
  if (recorded) return recorded;
  const artifact = createArtifact({ id: input.newId(editKey), content, version: attempt, parentId: parent.id });
  const result = await input.step.actionPair.guard.validate(artifact, input.dependencies, { signal: input.signal, calls: input.calls, callKey: `${editKey}/guard` });
  input.signal?.throwIfAborted();
  await input.dag.store({ artifact, stepName: input.step.name, guardId: input.step.guardId, result, dependencyIds: dependencyIdsOf(input.dependencies), language: input.step.language ?? null });
  await input.observer.record({ type: "guard.completed", step: input.step.name, attempt, artifactId: artifact.id, result }, `${editKey}/verdict`);
  return { artifact, result };
}

/** The artifact and verdict of an attempt recorded by an earlier turn of this run, if any. */
async function recallAttempt(input: AgentInput, attemptKey: string): Promise<{ artifact: Artifact; result: GuardResult } | undefined> {
  const verdict = await input.observer.recall?.(`${attemptKey}/verdict`);
  if (!verdict) return undefined;
  // The DAG row was written in the same transaction as the verdict, so it is there.
  const stored = await input.dag.get(String(verdict.artifactId));
  return { artifact: stored.artifact, result: stored.result };
}
