import type { GeneratorSpec } from "../../generators/generator-spec";
import type { GuardSpec } from "../../guards/guard-spec";
import type { GuardLanguage } from "../../guards/language";
import type { DocumentProblem } from "../document";
import type { WorkflowBudget } from "./budget-schema";
import type { OnFailure, StepType } from "./definition-schema";
import type { ToolDeclaration } from "./tools/tool-types";

/** 001's prompt template; a string prompt in a document becomes `{ task }`. */
export interface PromptTemplate {
  role?: string;
  constraints?: string;
  task?: string;
  feedback_wrapper?: string;
}

/** A step with every default applied (see docs/workflow-format.md). Keys stay snake_case like the document. */
export interface StepDefinition {
  name: string;
  type: StepType;
  /** A state, a list of states, or "*" (any state, as a fallback): server/engine/domain/in-state.ts. */
  in_state: string | string[];
  guard_id?: string;
  generator?: GeneratorSpec;
  prompt?: PromptTemplate;
  /** Action pairs only. */
  guards?: GuardSpec[];
  /** Action pairs only. */
  guard_artifact_deps?: string[];
  /** Action pairs only: empty content is a valid artifact. */
  allow_empty?: boolean;
  max_retries: number;
  on_failure: OnFailure;
  run_if?: string;
  /** Action pairs only (001's ρ): a condition over guard ids; false when the step's turn comes fails the run. */
  precondition?: string;
  transition_to?: string;
  transition_map?: Record<string, string>;
  code?: string;
  language?: GuardLanguage;
}

export interface TransitionDefinition {
  from: string;
  to: string;
  condition?: string;
}

export interface ComponentDefinition {
  name: string;
  text: string;
  inject_into: string[];
}

export interface WorkflowDefinition {
  name: string;
  description?: string;
  specification?: string;
  constraints?: string;
  language: GuardLanguage;
  default_on_failure: OnFailure;
  default_max_retries: number;
  context: Record<string, boolean | number | string>;
  components: ComponentDefinition[];
  /** Tools agent steps may call (docs/workflow-format.md, Tools); absent when the document declares none. */
  tools?: Record<string, ToolDeclaration>;
  state_machine: { states: string[]; initial_state: string; final_states: string[]; transitions: TransitionDefinition[] };
  steps: StepDefinition[];
  /** Guard ids forming the goal; absent: the guards of every action pair that ran. */
  goal?: string[];
  /** What each run may spend on model calls (docs/usage-and-budgets.md); absent: no limit. */
  budget?: WorkflowBudget;
}

/**
 * Warnings never block a save or a run: they say where a document relies on a default or an
 * inference (docs/workflow-format.md, "Documents written in the seeds' format").
 */
export type ValidationResult =
  | { ok: true; definition: WorkflowDefinition; warnings: DocumentProblem[] }
  | { ok: false; problems: DocumentProblem[]; warnings: DocumentProblem[] };
