/**
 * What a workflow can be made of, with a one-line explanation of each: step types, guard kinds,
 * generator kinds and failure policies. The parsers (server/workflows/definition,
 * server/guards/guard-spec.ts, server/generators/generator-spec.ts) take their lists of names
 * from here, and the designer's palette shows the same entries. Plain data, so the browser may
 * import it; catalogue.test.ts checks each guard's options against its parser's schema.
 */

export const STEP_TYPES = ["llm", "code", "transition", "action_pair"] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const GUARD_KINDS = ["syntax", "test", "tdd", "security", "json_schema", "llm_judge", "human", "all_of", "any_of"] as const;
export type GuardKind = (typeof GUARD_KINDS)[number];

export const GENERATOR_KINDS = ["openai", "llm", "agent", "replay"] as const;
export type GeneratorKind = (typeof GENERATOR_KINDS)[number];

export const ON_FAILURE = ["retry", "skip", "fail", "escalate"] as const;
export type OnFailure = (typeof ON_FAILURE)[number];

export interface CatalogueEntry {
  /** Shown in lists, e.g. "Action pair". */
  readonly title: string;
  /** One line: what it does and when to use it. */
  readonly summary: string;
}

/**
 * How an option is entered: `language` picks javascript, typescript or python; `list` is text
 * items; `json` is a JSON value (a schema, sandbox limits, member guards).
 */
export type OptionInput = "text" | "multiline" | "number" | "boolean" | "language" | "list" | "json";

export interface GuardOption {
  readonly name: string;
  readonly input: OptionInput;
  readonly required?: boolean;
  readonly help: string;
}

export interface GuardEntry extends CatalogueEntry {
  readonly options: readonly GuardOption[];
  /** What a newly added guard of this kind starts with (its required options). */
  readonly starter: Readonly<Record<string, unknown>>;
}

export const STEP_CATALOGUE: Readonly<Record<StepType, CatalogueEntry>> = {
  action_pair: { title: "Action pair", summary: "A model writes an artifact, guards check it, and failures go back to the model as feedback until it passes or the retries run out." },
  llm: { title: "LLM call", summary: "One model answer, unchecked, kept as the step's output for later prompts and conditions." },
  code: { title: "Code", summary: "Runs your code in the sandbox to read and set context variables; no model involved." },
  transition: { title: "Transition choice", summary: "A model answers with one of a few words, and each word leads to a state (transition_map)." },
};

const LANGUAGE_HELP = "javascript, typescript or python; the step's language when empty";
const TIMEOUT: GuardOption = { name: "timeout_ms", input: "number", help: "Milliseconds before the check counts as failed (at most 600000)" };
const LIMITS: GuardOption = { name: "limits", input: "json", help: 'Sandbox limits, e.g. {"wall_clock_ms": 5000, "memory_mb": 256}' };

export const GUARD_CATALOGUE: Readonly<Record<GuardKind, GuardEntry>> = {
  syntax: {
    title: "Syntax",
    summary: "The code must parse in its language; the parser's error and line go back to the model.",
    options: [{ name: "language", input: "language", help: LANGUAGE_HELP }, TIMEOUT],
    starter: {},
  },
  test: {
    title: "Tests",
    summary: "Runs fixed tests (the test option) or the artifact of a step named test against the code, in the sandbox.",
    options: [{ name: "test", input: "multiline", help: "Test code; without it the tests come from a dependency named test (g_test)" }, { name: "language", input: "language", help: LANGUAGE_HELP }, LIMITS, TIMEOUT],
    starter: {},
  },
  tdd: {
    title: "Test-driven",
    summary: "Runs the tests another step wrote (a dependency named test, e.g. g_test) against the code, in the sandbox.",
    options: [{ name: "language", input: "language", help: LANGUAGE_HELP }, LIMITS, TIMEOUT],
    starter: {},
  },
  security: {
    title: "Security",
    summary: "Static analysis: processes, eval, files, network or environment access make the verdict fatal, so a person decides.",
    options: [
      { name: "language", input: "language", help: LANGUAGE_HELP },
      { name: "allow_modules", input: "list", help: "Modules the code may import although they reach outside, e.g. json, math" },
      { name: "allow_calls", input: "list", help: "Calls the code may make although they reach outside" },
      TIMEOUT,
    ],
    starter: {},
  },
  json_schema: {
    title: "JSON Schema",
    summary: "The artifact must be JSON matching a JSON Schema; each violation and its path go back to the model.",
    options: [{ name: "schema", input: "json", required: true, help: 'A JSON Schema, e.g. {"type": "object", "required": ["name"]}' }, TIMEOUT],
    starter: { schema: { type: "object" } },
  },
  llm_judge: {
    title: "LLM judge",
    summary: "A second model grades the artifact against your rubric and explains what is missing.",
    options: [
      { name: "rubric", input: "multiline", required: true, help: "What the judge checks, in plain words" },
      { name: "model", input: "text", help: "The judge's model; the configured model when empty" },
      { name: "temperature", input: "number", help: "0 to 2" },
      { name: "json_mode", input: "boolean", help: "Ask the endpoint for a JSON answer (turn off for servers without it)" },
      TIMEOUT,
    ],
    starter: { rubric: "" },
  },
  human: {
    title: "Human review",
    summary: "Every artifact waits for a person to approve, reject or edit it in the Escalations inbox.",
    options: [{ name: "instructions", input: "multiline", help: "What the reviewer should check" }, TIMEOUT],
    starter: {},
  },
  all_of: {
    title: "All of",
    summary: "Every listed guard must pass, checked in order; the first failure is the verdict.",
    options: [{ name: "guards", input: "json", required: true, help: 'Member guards, e.g. [{"kind": "syntax"}, {"kind": "security"}]' }, TIMEOUT],
    starter: { guards: [{ kind: "syntax" }] },
  },
  any_of: {
    title: "Any of",
    summary: "Passes as soon as one listed guard passes; otherwise every member's feedback goes back.",
    options: [{ name: "guards", input: "json", required: true, help: 'Alternatives, e.g. [{"kind": "json_schema", "schema": {}}, {"kind": "syntax"}]' }, TIMEOUT],
    starter: { guards: [{ kind: "syntax" }] },
  },
};

export const GENERATOR_CATALOGUE: Readonly<Record<GeneratorKind, CatalogueEntry>> = {
  llm: { title: "Configured model", summary: "The model this server is configured with (OPENAI_MODEL)." },
  openai: { title: "OpenAI-compatible model", summary: "A named model on the configured OpenAI-compatible endpoint." },
  agent: { title: "Agent", summary: "A model that may call tools over several turns before answering." },
  replay: { title: "Replay cassette", summary: "Recorded answers played back in order: offline, free and repeatable." },
};

export const ON_FAILURE_CATALOGUE: Readonly<Record<OnFailure, CatalogueEntry>> = {
  retry: { title: "Retry", summary: "Try again with the feedback until max_retries, then fail the run." },
  skip: { title: "Skip", summary: "Move on as if the step had not run (configuration errors still fail)." },
  fail: { title: "Fail", summary: "End the run failed once the retries are spent." },
  escalate: { title: "Escalate", summary: "Once the retries are spent, a person approves or rejects the last attempt (action_pair steps only)." },
};

/** Entries whose name, title or summary contain every word of the query (case-insensitive). */
export function searchCatalogue<Name extends string>(entries: Readonly<Record<Name, CatalogueEntry>>, query: string): Name[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return (Object.keys(entries) as Name[]).filter((name) => {
    const entry = entries[name];
    const text = `${name} ${entry.title} ${entry.summary}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
