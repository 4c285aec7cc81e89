import type { RawStep } from "./definition-schema";
import { stepType } from "./normalize";
import type { Problems } from "./problems";
import { present, type CheckableWorkflow, type Knowledge } from "./salvage";

type Path = (string | number)[];

/** Which fields each step type may carry; anything else is a mistake worth naming. */
const ONLY_FOR: [keyof RawStep, RawStep["type"][]][] = [
  ["guard_id", ["action_pair"]],
  ["guards", ["action_pair"]],
  ["guard_artifact_deps", ["action_pair"]],
  ["allow_empty", ["action_pair"]],
  ["precondition", ["action_pair"]],
  ["generator", ["llm", "transition", "action_pair"]],
  ["prompt", ["llm", "transition", "action_pair"]],
  ["transition_map", ["transition"]],
  ["transition_to", ["llm", "code", "action_pair"]],
  ["code", ["code"]],
  ["language", ["code", "action_pair"]],
];

/** Per-step rules: names unique, fields fit the type, required fields present (not for partial steps). */
export function checkSteps(raw: CheckableWorkflow, known: Knowledge, problems: Problems): void {
  if (raw.steps.length === 0) problems.warn(["steps"], "no steps: the machine moves by its transitions alone");
  const names = new Map<string, number>();
  for (const [step, i] of present(raw.steps)) {
    const at = (...rest: Path): Path => ["steps", i, ...rest];
    const first = names.get(step.name);
    if (first === undefined) names.set(step.name, i);
    else problems.add(at("name"), `duplicate step name "${step.name}" (first at steps[${first}])`);
    // A field that did not parse may have been the one a rule below asks for.
    if (known.partialSteps.has(i)) continue;

    const type = stepType(step);
    for (const [field, types] of ONLY_FOR) {
      if (step[field] !== undefined && !types.includes(type)) problems.add(at(field), `a ${type} step cannot have ${field} (only ${types.join(", ")} steps)`);
    }
    if (type !== "action_pair" && step.on_failure === "escalate") problems.add(at("on_failure"), `a ${type} step cannot escalate: only an action_pair step has a checked artifact a person can review (use retry, skip or fail)`);
    if (step.rmax !== undefined && step.max_retries !== undefined) problems.add(at("rmax"), "rmax is an alias of max_retries: write only one");
    if (type !== "code" && step.prompt !== undefined && !step.prompt.task?.trim()) problems.add(at("prompt", "task"), "is required: the prompt needs a task");
    if (type !== "code" && step.prompt === undefined) problems.add(at("prompt"), `is required for a ${type} step`);
    if (type === "code" && !step.code?.trim()) problems.add(at("code"), "is required for a code step");
    if (type === "transition") {
      if (!step.transition_map || Object.keys(step.transition_map).length === 0) problems.add(at("transition_map"), "is required for a transition step: map each answer to a state");
    }
    if (type === "action_pair") {
      if (step.guard_id === undefined) problems.add(at("guard_id"), "is required for an action_pair step");
      if (!step.guards || step.guards.length === 0) problems.add(at("guards"), "an action_pair step needs at least one guard");
    }
  }
}

/** Names usable in conditions must look like condition names (see the condition tokenizer). */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
