import type { Context } from "../domain/context";
import type { GuardResult } from "../domain/guard-result";
import type { PromptTemplate } from "../domain/prompt-template";
import type { CallLedger } from "./call-ledger";
import type { GuardDependencies } from "./guard";

export interface GenerationRequest {
  readonly context: Context;
  readonly template: PromptTemplate | undefined;
  readonly stepName: string;
  /** 1-based attempt number within the step. */
  readonly attempt: number;
  /** The run's ledger: every model or tool call goes through it (replay after a crash). */
  readonly calls: CallLedger;
  /** Unique per run for this attempt ("implement/attempt-2"); a generator appends its own turn. */
  readonly callKey: string;
  /**
   * The attempt's key in the run with its visit ("implement#2/attempt-1" on a revisit), which
   * callKey leaves out; set by the agent for action-pair attempts.
   */
  readonly attemptKey?: string;
  /** Sent as the prompt instead of one rendered from template and context (a fork's edited prompt). */
  readonly prompt?: string;
  /** The artifacts scoped for this step's guard, which an agent's tools may read. */
  readonly dependencies: GuardDependencies;
  /** Checks a draft against the step's non-fatal guards, when the step has them. */
  readonly checkDraft?: (content: string) => Promise<GuardResult>;
  /** The run's context variables as they are when this generation starts (code steps change them). */
  readonly variables?: Readonly<Record<string, boolean | number | string>>;
  /**
   * The built-in prompt variables (`agent_id`, `run_id`, `attempt`, `last_output`…; see
   * domain/builtin-variables.ts) and every `steps.NAME.output`, as text, as they are when this
   * generation starts. Set by runMachine; absent outside a machine run (001's executeWorkflow).
   */
  readonly promptValues?: Readonly<Record<string, string>>;
  /**
   * Aborted when the turn must stop at once (the run was cancelled, the turn lost its lease, the
   * worker shuts down): stop waiting (a delay, a model call) and throw the signal's reason.
   * Never record an abort as the call's result: the run resumes from the ledger elsewhere.
   */
  readonly signal?: AbortSignal;
}

export interface Generation {
  readonly content: string;
  /**
   * Set when the content is not the whole answer (the reply was cut at the size limit): the
   * attempt fails with this as its feedback and no guard sees the content.
   */
  readonly incomplete?: string;
  /** What produced it (model, prompt, usage...), kept in the ledger for inspection. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * a_gen of 001. It may be a single model call or a whole tool-using agent: the workflow sees
 * only the content it returns (001, Hierarchical Composition & Semantic Agency).
 */
export interface Generator {
  generate(request: GenerationRequest): Promise<Generation>;
}
