import type { Context } from "../domain/context";
import type { PromptTemplate } from "../domain/prompt-template";

export interface GenerationRequest {
  readonly context: Context;
  readonly template: PromptTemplate | undefined;
  readonly stepName: string;
  /** 1-based attempt number within the step. */
  readonly attempt: number;
}

export interface Generation {
  readonly content: string;
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
