import type { RawStep, RawWorkflow } from "./definition-schema";
import type { StepDefinition, WorkflowDefinition } from "./types";
import { normalizeTools } from "./tools/normalize-tools";

export const DEFAULT_ON_FAILURE = "retry";
export const DEFAULT_MAX_RETRIES = 3;
/** Code steps run JavaScript unless the document or the step says otherwise (issue 5). */
export const DEFAULT_LANGUAGE = "javascript";

/** 004 steps have no guards; 001's action pairs are the steps that do. */
export function stepType(step: RawStep): StepDefinition["type"] {
  return step.type ?? (step.guards && step.guards.length > 0 ? "action_pair" : "llm");
}

/** Applies the documented defaults; runs only on a definition that passed every check. */
export function normalize(raw: RawWorkflow): WorkflowDefinition {
  const language = raw.language ?? DEFAULT_LANGUAGE;
  const defaultOnFailure = raw.default_on_failure ?? DEFAULT_ON_FAILURE;
  const defaultMaxRetries = raw.default_max_retries ?? DEFAULT_MAX_RETRIES;
  const steps = raw.steps.map((step): StepDefinition => {
    const { rmax, max_retries, type: _type, guards, guard_artifact_deps, on_failure, language: stepLanguage, ...rest } = step;
    const type = stepType(step);
    return {
      ...rest,
      type,
      // Guards and their dependencies belong to action pairs only; other steps carry neither,
      // so a stored definition reads back through the validator unchanged.
      ...(type === "action_pair" ? { guards: guards ?? [], guard_artifact_deps: guard_artifact_deps ?? [] } : {}),
      max_retries: max_retries ?? rmax ?? defaultMaxRetries,
      // Only action pairs escalate (check-steps.ts); under default_on_failure: escalate the other steps fail.
      on_failure: on_failure ?? (type !== "action_pair" && defaultOnFailure === "escalate" ? "fail" : defaultOnFailure),
      // Only code steps run code in a language; action pairs pass theirs to guards.
      ...(type === "code" ? { language: stepLanguage ?? language } : stepLanguage ? { language: stepLanguage } : {}),
    };
  });
  const { tools, ...fields } = raw;
  return {
    ...fields,
    language,
    default_on_failure: defaultOnFailure,
    default_max_retries: defaultMaxRetries,
    context: raw.context ?? {},
    components: raw.components ?? [],
    // Only when declared: a definition without tools stays byte for byte what it was.
    ...(tools ? { tools: normalizeTools(tools, language) } : {}),
    state_machine: { ...raw.state_machine, transitions: raw.state_machine.transitions ?? [] },
    steps,
  };
}
