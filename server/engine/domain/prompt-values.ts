import { stepOutputVariable, type BuiltinPromptVariable } from "./builtin-variables";

/** Who a run is, for `{run_id}`, `{workflow}` and `{agent_id}`. */
export interface RunIdentity {
  readonly runId: string;
  /** The workflow's name; also the agent's id (004's `{agent_id}`). */
  readonly workflow: string;
}

/** A step's output as a later prompt sees it: text, whatever the step's type. */
export interface StepOutputEntry {
  readonly step: string;
  readonly output: string;
}

/** Steps `{action_history}` lists, and how much of each output it shows (issue 17's contract). */
export const ACTION_HISTORY_LENGTH = 5;
export const ACTION_HISTORY_LINE_LIMIT = 500;
/**
 * The most of one step output (`{steps.NAME.output}`, `{last_output}`) a prompt receives: an
 * action pair's artifact or a verbose model answer must not multiply a prompt's size unbounded.
 */
export const PROMPT_OUTPUT_LIMIT = 20_000;

/** `text` cut to `limit` characters, saying so when it was cut. */
export function boundedText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… (cut at ${limit} of ${text.length} characters)`;
}

export interface PromptValueInput {
  readonly identity: RunIdentity;
  readonly specification: string;
  /** The turn number, from 1. */
  readonly tick: number;
  readonly state: string;
  /** Every step of the machine: each has a `steps.NAME.output`, "" until it has run. */
  readonly stepNames: readonly string[];
  /** Latest output of each step that produced one in this run. */
  readonly outputs: Readonly<Record<string, string>>;
  /** Outputs in the order they were produced (at least the last ACTION_HISTORY_LENGTH). */
  readonly history: readonly StepOutputEntry[];
  /** Satisfied guards with the step that satisfied each, in the order they were satisfied. */
  readonly satisfied: readonly { readonly guardId: string; readonly step: string }[];
}

/**
 * The built-in prompt variables and every `steps.NAME.output`, as text, at the moment a
 * generation starts (builtin-variables.ts describes each). `attempt` is left to whoever makes the
 * attempt (`withAttempt`). Pure.
 */
export function promptValues(input: PromptValueInput): Readonly<Record<string, string>> {
  const last = input.history.at(-1)?.output ?? "";
  const builtins: Record<Exclude<BuiltinPromptVariable, "attempt">, string> = {
    agent_id: input.identity.workflow,
    workflow: input.identity.workflow,
    run_id: input.identity.runId,
    task: input.specification,
    last_output: boundedText(last, PROMPT_OUTPUT_LIMIT),
    last_action_result: boundedText(last, PROMPT_OUTPUT_LIMIT),
    tick: String(input.tick),
    state: input.state,
    artifacts: input.satisfied.map((guard) => `${guard.guardId} (step ${guard.step})`).join("\n"),
    action_history: input.history
      .slice(-ACTION_HISTORY_LENGTH)
      .map((entry) => `${entry.step}: ${boundedText(entry.output, ACTION_HISTORY_LINE_LIMIT)}`)
      .join("\n"),
  };
  const values: Record<string, string> = { ...builtins };
  for (const step of input.stepNames) values[stepOutputVariable(step)] = boundedText(input.outputs[step] ?? "", PROMPT_OUTPUT_LIMIT);
  return Object.freeze(values);
}

/** The values of one attempt's generation: `{attempt}` is its 1-based number. */
export function withAttempt(values: Readonly<Record<string, string>> | undefined, attempt: number): Readonly<Record<string, string>> | undefined {
  return values === undefined ? undefined : Object.freeze({ ...values, attempt: String(attempt) });
}
