/** The four step types of a workflow (004's llm / code / transition, and 001's action pair). */
export const STEP_KINDS = ["action_pair", "llm", "code", "transition"] as const;

export type StepKind = (typeof STEP_KINDS)[number];

/** The step types without a guard: retried by `runRetried`, their output stored as an accepted artifact. */
export type UnguardedStepKind = Exclude<StepKind, "action_pair">;

export function isStepKind(value: unknown): value is StepKind {
  return typeof value === "string" && (STEP_KINDS as readonly string[]).includes(value);
}

/** The step kind of an artifact stored without one: an action pair (everything stored before issue 17). */
export const DEFAULT_STEP_KIND = "action_pair" satisfies StepKind;

/** The step kind a stored artifact's column holds, or the default for one that holds none (or an unknown value). */
export function storedStepKind(value: unknown): StepKind {
  return isStepKind(value) ? value : DEFAULT_STEP_KIND;
}
