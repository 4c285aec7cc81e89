/**
 * Prompt variables every run provides (issue 17; 004's "Context Variables", the ones that mean
 * something in Dualstate). Prompt-only: conditions see declared variables, guard ids and step
 * outputs. A document may not declare a context variable with one of these names.
 */
export const BUILTIN_PROMPT_VARIABLES = {
  agent_id: "The agent's id: the workflow's name",
  workflow: "The workflow's name",
  run_id: "The run's id",
  task: "The run's specification (the task it was given)",
  attempt: "The attempt number of this step's current generation, from 1",
  last_output: "The output of the most recent step that produced one (empty at first)",
  last_action_result: "004's name for last_output",
  tick: "The turn number, from 1",
  state: "The current state",
  artifacts: "One line per satisfied guard: `g_id (step NAME)`; empty when none is satisfied",
  action_history: "The last 5 step outputs, one `NAME: output` line each, each cut to 500 characters",
} as const satisfies Record<string, string>;

export type BuiltinPromptVariable = keyof typeof BUILTIN_PROMPT_VARIABLES;

export function isBuiltinPromptVariable(name: string): name is BuiltinPromptVariable {
  return Object.hasOwn(BUILTIN_PROMPT_VARIABLES, name);
}

/** `{steps.NAME.output}` in prompts, `steps.NAME.output` in conditions: an earlier step's output. */
export const STEP_OUTPUT_PATTERN = /^steps\.([A-Za-z_][A-Za-z0-9_]*)\.output$/;

export function stepOutputVariable(stepName: string): string {
  return `steps.${stepName}.output`;
}

/** The step a `steps.NAME.output` name refers to, or undefined for any other name. */
export function stepOfOutputVariable(name: string): string | undefined {
  return STEP_OUTPUT_PATTERN.exec(name)?.[1];
}
