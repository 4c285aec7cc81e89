import type { ActionPair } from "../domain/action-pair";
import type { PromptTemplate } from "../domain/prompt-template";
import type { WorkflowResult } from "../domain/workflow-result";
import type { ConditionNode } from "../conditions";
import type { Generator } from "../ports/generator";
import type { Guard } from "../ports/guard";

/**
 * The engine-level state machine that the one interpreter (`runMachine`) executes. Validated
 * workflow documents (docs/workflow-format.md) are compiled into it; 001's sequential step list is
 * the special case of a linear machine (`linearMachine`).
 */
export type ContextValue = boolean | number | string;
export type MachineContext = Readonly<Record<string, ContextValue>>;

import type { InState } from "../domain/in-state";
/** A wildcard `from` matches every state; a step with `inState: "*"` is every state's fallback. */
export { ANY_STATE, type InState } from "../domain/in-state";

export interface MachineTransition {
  readonly from: string;
  readonly to: string;
  /** `{ kind: "literal", value: true }` for a transition without a condition. */
  readonly condition: ConditionNode;
}

export type OnFailure = "retry" | "skip" | "fail" | "escalate";

interface StepCommon {
  readonly name: string;
  /** Where the step runs: a state, a list of states, or "*" (every state's fallback; domain/in-state.ts). */
  readonly inState: InState;
  /** The step runs only when this holds (evaluated over the same scope as transitions). */
  readonly runIf?: ConditionNode;
  /** Where to go after the step, before any transition is considered. */
  readonly transitionTo?: string;
}

/** 001's action pair: generate, guard, retry with feedback up to rmax times. */
export interface ActionPairMachineStep extends StepCommon {
  readonly kind: "action_pair";
  readonly guardId: string;
  readonly actionPair: ActionPair;
  readonly guardArtifactDeps: readonly string[];
  /** Retry budget: rmax + 1 attempts. */
  readonly rmax: number;
  /**
   * After the budget is used: `retry` and `fail` end the run failed (retry means the budget was
   * already spent), `skip` continues to the transition without satisfying the guard, `escalate`
   * ends the run in escalation with the last artifact and its feedback.
   */
  readonly onFailure: OnFailure;
  readonly language?: string;
  readonly draftGuard?: Guard;
}

/**
 * How an llm, code or transition step fails: a failed attempt (a failed model call, an empty or
 * cut answer, an answer outside the transition map, code that raises) is retried up to
 * `maxRetries` times (0 when absent); after that `onFailure` decides: `retry` and `fail` (the
 * default) end the run failed, `skip` goes on as though the step had not run. These steps have
 * no artifact a person could review, so `escalate` is refused before the run (assertRunnable).
 * A configuration error is never retried nor skipped.
 */
export interface RetriedStep {
  readonly maxRetries?: number;
  readonly onFailure?: OnFailure;
}

/** 004's llm step: one generation, no guard; its content becomes the step's output. */
export interface LlmMachineStep extends StepCommon, RetriedStep {
  readonly kind: "llm";
  readonly generator: Generator;
  readonly template?: PromptTemplate;
}

export type CodeStepOutcome = { readonly updates: Readonly<Record<string, ContextValue>> } | { readonly error: string };

/**
 * 004's code step: the sandbox is injected as `run`; it may only set declared variables. `signal`
 * aborts the run (kill the sandbox and throw its reason).
 */
export interface CodeMachineStep extends StepCommon, RetriedStep {
  readonly kind: "code";
  readonly run: (context: MachineContext, signal?: AbortSignal) => Promise<CodeStepOutcome>;
}

/** 004's transition step: the LLM answers with a key of transitionMap (trimmed, any case). */
export interface TransitionMachineStep extends StepCommon, RetriedStep {
  readonly kind: "transition";
  readonly generator: Generator;
  readonly template?: PromptTemplate;
  readonly transitionMap: Readonly<Record<string, string>>;
}

export type MachineStep = ActionPairMachineStep | LlmMachineStep | CodeMachineStep | TransitionMachineStep;

export interface WorkflowMachine {
  readonly states: readonly string[];
  readonly initialState: string;
  readonly finalStates: readonly string[];
  /** Considered in list order; see runMachine for how `from` and "*" are matched. */
  readonly transitions: readonly MachineTransition[];
  readonly steps: readonly MachineStep[];
  /** Declared context variables with their defaults. */
  readonly context: MachineContext;
  /**
   * Guard ids forming the goal (000 Sgoal), each an action pair step's guardId. Absent: the
   * guards of every action pair step that ran. See domain/goal.ts.
   */
  readonly goal?: readonly string[];
}

/** The engine's WorkflowResult plus where the machine ended and how it got there. */
export type MachineResult = WorkflowResult & {
  /** The state the run ended in (the final state on success). */
  readonly finalState: string;
  /** Context variables as they were at the end. */
  readonly context: MachineContext;
  /** Turns taken (one per step-then-transition). */
  readonly turns: number;
  /** Every state visited, in order, starting with the initial state. */
  readonly path: readonly string[];
  /** Step name → content of the last llm or transition step generation. */
  readonly outputs: Readonly<Record<string, string>>;
};
