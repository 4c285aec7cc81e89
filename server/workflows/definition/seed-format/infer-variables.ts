/**
 * Context variables a seed document uses without declaring them (004 declares none): a variable
 * a code step sets is declared by that use, `false` until it is set. In a document with no
 * `context` block at all, one a condition reads that nothing sets is `false` and one a prompt
 * shows that nothing sets is empty text, unless the run sets it (`--var NAME=…`); a document
 * that declares its variables keeps every other name an error. Each inference is a warning
 * naming it, with a near known name when there is one (a misspelling).
 */
import { parseCondition } from "../../../engine";
import { BUILTIN_PROMPT_VARIABLES, isBuiltinPromptVariable, stepOfOutputVariable } from "../../../engine/domain/builtin-variables";
import { promptVariables, RUN_VARIABLES } from "../check-references";
import { IDENTIFIER } from "../check-steps";
import { isObject, type SeedFindings } from "./findings";
import { nearestName } from "./nearest-name";

/** Assignments to `context['x']`, `context["x"]` or `context.x` (Python and JavaScript), `+=` and the like included. */
const SUBSCRIPT_ASSIGNMENT = /context\[\s*(['"])([A-Za-z_][A-Za-z0-9_]{0,99})\1\s*\]\s*(?:\*\*|\/\/|[-+*/%|&^])?=(?!=)/g;
const ATTRIBUTE_ASSIGNMENT = /context\.([A-Za-z_][A-Za-z0-9_]{0,99})\s*(?:\*\*|\/\/|[-+*/%|&^])?=(?!=)/g;

export function variablesSetByCode(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(SUBSCRIPT_ASSIGNMENT)) names.add(match[2] as string);
  for (const match of code.matchAll(ATTRIBUTE_ASSIGNMENT)) names.add(match[1] as string);
  return [...names];
}

/** Inferred declarations a document may rely on; past this it must declare its variables. */
export const MAX_INFERRED_VARIABLES = 500;
const MAX_HINT_CANDIDATES = 2000;

export function inferVariables(workflow: Record<string, unknown>, steps: readonly Record<string, unknown>[], findings: SeedFindings): void {
  if (workflow.context !== undefined && !isObject(workflow.context)) return;
  const context: Record<string, unknown> = { ...(workflow.context ?? {}) };
  const declared = new Set(Object.keys(context));
  const guardIds = new Set(steps.map((step) => step.guard_id).filter((id): id is string => typeof id === "string"));
  // A name a step holds under any key (a misspelt guard_id, say) may be a guard id: never a variable.
  const heldBySteps = new Set(steps.flatMap((step) => Object.values(step).filter((value): value is string => typeof value === "string")));
  // With a guard id that is not text, any name in a condition may be it.
  const guardIdsKnown = steps.every((step) => step.guard_id === undefined || typeof step.guard_id === "string") && steps.every((step) => Object.keys(step).length > 0);
  const stepNames = new Set(steps.map((step) => step.name).filter((name): name is string => typeof name === "string"));
  const known = (name: string) => declared.has(name) || guardIds.has(name) || (stepOfOutputVariable(name) !== undefined && stepNames.has(stepOfOutputVariable(name) as string));
  // "Did you mean" looks among the names the author wrote down, a bounded list: never among inferred ones.
  const spelled = [...declared, ...guardIds, ...RUN_VARIABLES, ...Object.keys(BUILTIN_PROMPT_VARIABLES)].slice(0, MAX_HINT_CANDIDATES);
  let inferred = 0;
  const declare = (name: string, value: boolean | string, path: (string | number)[], message: string) => {
    if (!IDENTIFIER.test(name) || known(name)) return;
    if (++inferred > MAX_INFERRED_VARIABLES) {
      if (inferred === MAX_INFERRED_VARIABLES + 1) findings.problems.push({ path, message: `more than ${MAX_INFERRED_VARIABLES} variables are used without being declared: declare them under context:` });
      return;
    }
    context[name] = value;
    declared.add(name);
    const near = nearestName(name, spelled);
    findings.warnings.push({ path, message: near ? `${message} (did you mean "${near}"?)` : message });
  };

  steps.forEach((step, i) => {
    if (step.type !== "code" || typeof step.code !== "string") return;
    for (const name of variablesSetByCode(step.code)) {
      declare(name, false, ["steps", i, "code"], `sets "${name}", which is not declared: declared by this use, false until a code step sets it`);
    }
  });
  // A document that declares its variables has said which ones exist.
  if (workflow.context !== undefined) {
    workflow.context = context;
    return;
  }
  const conditions: [string, (string | number)[]][] = [];
  const machine = workflow.state_machine;
  if (isObject(machine) && Array.isArray(machine.transitions)) {
    machine.transitions.forEach((transition, i) => {
      if (isObject(transition) && typeof transition.condition === "string") conditions.push([transition.condition, ["state_machine", "transitions", i, "condition"]]);
    });
  }
  steps.forEach((step, i) => {
    if (typeof step.run_if === "string") conditions.push([step.run_if, ["steps", i, "run_if"]]);
  });
  for (const [source, path] of guardIdsKnown ? conditions : []) {
    const parsed = parseCondition(source);
    if (!parsed.ok) continue;
    for (const name of parsed.names) {
      if (heldBySteps.has(name)) continue;
      declare(name, false, path, `reads "${name}", which nothing declares or sets: false unless the run sets it (--var ${name}=…)`);
    }
  }
  const dependencyNames = new Set(steps.flatMap((step) => (Array.isArray(step.guard_artifact_deps) ? step.guard_artifact_deps : [])).filter((dep): dep is string => typeof dep === "string").flatMap((dep) => [dep, dep.replace(/^g_/, "")]));
  const shown = (name: string) => isBuiltinPromptVariable(name) || (RUN_VARIABLES as readonly string[]).includes(name) || name === "feedback" || dependencyNames.has(name);
  const prompts: [string, (string | number)[]][] = [];
  steps.forEach((step, i) => {
    const prompt = step.prompt;
    if (typeof prompt === "string") prompts.push([prompt, ["steps", i, "prompt"]]);
    else if (isObject(prompt)) for (const [field, text] of Object.entries(prompt)) if (typeof text === "string") prompts.push([text, ["steps", i, "prompt", field]]);
  });
  if (Array.isArray(workflow.components)) {
    workflow.components.forEach((component, c) => {
      if (isObject(component) && typeof component.text === "string") prompts.push([component.text, ["components", c, "text"]]);
    });
  }
  for (const [text, path] of prompts) {
    for (const name of promptVariables(text)) {
      if (shown(name)) continue;
      declare(name, "", path, `shows {${name}}, which nothing declares or sets: empty text unless the run sets it (--var ${name}=…)`);
    }
  }
  if (Object.keys(context).length > 0) workflow.context = context;
}
