import { createArtifact, type Artifact } from "./artifact";
import type { Context } from "./context";
import type { GuardResult } from "./guard-result";
import type { PromptTemplate } from "./prompt-template";
import type { WorkflowState } from "./workflow-state";
import type { Generation, GenerationRequest, Generator } from "../ports/generator";
import type { Guard, GuardDependencies } from "../ports/guard";
import { PreconditionNotMetError } from "../errors";
import { unansweredFeedback } from "./answer-check";
import { failed } from "./guard-result";

/** Precondition ρ over the workflow state. */
export type Precondition = (state: WorkflowState) => boolean;

/** A = ⟨ρ, a_gen, G⟩ (000 Definition 6, 001 `ActionPair`), with an optional prompt template. */
export interface ActionPair {
  readonly precondition: Precondition;
  readonly generator: Generator;
  readonly guard: Guard;
  readonly template?: PromptTemplate;
  /** The step accepts empty content as its artifact (workflow option `allow_empty`); otherwise an empty reply is a failed attempt. */
  readonly allowEmpty?: boolean;
}

export const always: Precondition = () => true;

/** ρ that holds once every listed guard is satisfied. */
export function requiresGuards(guardIds: readonly string[]): Precondition {
  return (state) => guardIds.every((guardId) => state.guards[guardId] === true);
}

export function canExecute(pair: ActionPair, state: WorkflowState): boolean {
  return pair.precondition(state);
}

/** Where the attempt sits in its step's chain; the agent decides, the generator only writes content. */
export interface AttemptIdentity {
  readonly stepName: string;
  readonly artifactId: string;
  readonly attempt: number;
  readonly parentId: string | null;
}

/** What the generator may use beyond the context: the run's call ledger, dependencies, draft checks. */
export type GenerationServices = Pick<GenerationRequest, "calls" | "callKey" | "attemptKey" | "checkDraft" | "variables" | "promptValues" | "signal">;

export interface ActionPairOutcome {
  readonly artifact: Artifact;
  readonly result: GuardResult;
  readonly generation: Generation;
}

/**
 * Atomic generate-then-validate. The guard sees only `dependencies`, the artifacts scoped for it,
 * and only content that is an answer (answer-check.ts): an empty or cut-off reply fails first.
 * @throws PreconditionNotMetError when ρ does not hold; nothing is generated then.
 */
export async function executeActionPair(
  pair: ActionPair,
  state: WorkflowState,
  context: Context,
  dependencies: GuardDependencies,
  identity: AttemptIdentity,
  services: GenerationServices,
): Promise<ActionPairOutcome> {
  if (!pair.precondition(state)) throw new PreconditionNotMetError(identity.stepName);
  const generation = await pair.generator.generate({
    context,
    template: pair.template,
    stepName: identity.stepName,
    attempt: identity.attempt,
    dependencies,
    ...services,
  });
  const artifact = createArtifact({
    id: identity.artifactId,
    content: generation.content,
    version: identity.attempt,
    parentId: identity.parentId,
  });
  // A reply that is not an answer fails here, whatever the guard would say of it.
  const unanswered = unansweredFeedback(generation, pair.allowEmpty === true);
  const result = unanswered !== undefined ? failed(unanswered) : await pair.guard.validate(artifact, dependencies, { signal: services.signal, calls: services.calls, callKey: `${services.callKey}/guard` });
  // A guard cut short by an abort may answer anyway (a killed sandbox looks like a failure): not a verdict.
  services.signal?.throwIfAborted();
  return { artifact, result, generation };
}
