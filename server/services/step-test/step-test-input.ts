/** What a step test is asked to do: which step of which draft, with what inputs, answered by whom. */

/** Who answers the step: the model the step names (or the configured one), a pasted answer, or a named cassette. */
export type StepTestGenerator =
  | { readonly kind: "model" }
  /** Used as the artifact, as a replayed answer would be (no code-block extraction). */
  | { readonly kind: "answer"; readonly answer: string }
  /** A cassette in DUALSTATE_CASSETTE_DIR or among the bundled examples; attempt N is its Nth answer for the step. */
  | { readonly kind: "cassette"; readonly cassette: string };

export interface StepTestInput {
  /** The designer's draft (YAML or JSON text), unsaved; validated like a saved one. */
  readonly document: string;
  /** The state the step belongs to and the step's name. */
  readonly state: string;
  readonly step: string;
  /** Ψ for this test; the workflow's own specification when absent. */
  readonly specification?: string;
  /** Values for declared context variables (their defaults otherwise). */
  readonly variables?: Readonly<Record<string, boolean | number | string>>;
  /** Dependency name ("test" for g_test) → the artifact's text. */
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly generator: StepTestGenerator;
  /** Retry with the guards' feedback up to the step's budget; one attempt otherwise. */
  readonly retries?: boolean;
}
