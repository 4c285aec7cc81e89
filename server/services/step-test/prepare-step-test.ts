import { createArtifact, dependencyName, type Artifact } from "@/server/engine";
import { describeInState, stepPlacement } from "@/server/engine/domain/in-state";
import type { GuardSpec } from "@/server/guards/guard-spec";
import { validateWorkflowDocument, type StepDefinition, type WorkflowDefinition } from "@/server/workflows/definition";
import { isCassetteName } from "@/server/generators/replay/cassette";
import { invalidInput } from "../errors";
import { STEP_TEST_LIMITS as LIMITS } from "./step-test-limits";
import type { StepTestInput } from "./step-test-input";

/** A step test's inputs, checked against the draft: everything the run of the step needs. */
export interface PreparedStepTest {
  readonly definition: WorkflowDefinition;
  readonly step: StepDefinition & { readonly type: "action_pair" };
  /** The step's place in the document's steps list, for field paths in messages. */
  readonly stepIndex: number;
  /** The state the step is tested in (one of its in_state). */
  readonly state: string;
  readonly specification: string;
  readonly variables: Readonly<Record<string, boolean | number | string>>;
  readonly dependencies: Readonly<Record<string, Artifact>>;
}

const MAX_PROBLEMS_SHOWN = 5;

/**
 * Validates the draft like a save does, finds the step, and checks the specification, variables
 * and dependency artifacts against it. Every refusal is an INVALID_INPUT naming the field.
 */
export function prepareStepTest(input: StepTestInput): PreparedStepTest {
  checkSizes(input);
  const validated = validateWorkflowDocument(input.document, "workflow.yaml");
  if (!validated.ok) {
    const shown = validated.problems.slice(0, MAX_PROBLEMS_SHOWN).map((problem) => `${problem.line !== undefined ? `line ${problem.line}: ` : ""}${problem.path}: ${problem.message}`);
    const more = validated.problems.length - shown.length;
    throw invalidInput("document", `the draft is not a valid workflow; fix it first:\n${shown.join("\n")}${more > 0 ? `\n(and ${more} more)` : ""}`);
  }
  const definition = validated.definition;
  const stepIndex = definition.steps.findIndex((candidate) => candidate.name === input.step);
  const step = definition.steps[stepIndex];
  if (!step) throw invalidInput("step", `the draft has no step "${input.step}"`);
  if (!definition.state_machine.states.includes(input.state) || stepPlacement(step.in_state, input.state) === "elsewhere") {
    throw invalidInput("state", `step "${step.name}" runs in ${describeInState(step.in_state)}, not in "${input.state}"`);
  }
  if (step.type !== "action_pair") throw invalidInput("step", `"${step.name}" is a step of type ${step.type}; only action_pair steps (a generator with guards) can be tested`);
  if (input.generator.kind === "answer" && input.retries) throw invalidInput("retries", "a pasted answer is one attempt; retry with the model or a cassette");

  const specification = (input.specification ?? definition.specification ?? "").trim();
  if (specification === "") throw invalidInput("specification", `must not be empty: workflow "${definition.name}" declares no default specification`);

  return {
    definition,
    step: step as PreparedStepTest["step"],
    stepIndex,
    state: input.state,
    specification,
    variables: checkVariables(definition, input.variables ?? {}),
    dependencies: checkDependencies(step, stepIndex, input.dependencies ?? {}),
  };
}

/** The same bounds the API's input schema holds, for callers that come in another way. */
function checkSizes(input: StepTestInput): void {
  if (input.document.length > LIMITS.documentChars) throw invalidInput("document", `must be at most ${LIMITS.documentChars} characters`);
  if ((input.specification?.length ?? 0) > LIMITS.specificationChars) throw invalidInput("specification", `must be at most ${LIMITS.specificationChars} characters`);
  const variables = Object.entries(input.variables ?? {});
  if (variables.length > LIMITS.variables) throw invalidInput("variables", `at most ${LIMITS.variables} variables`);
  for (const [name, value] of variables) {
    if (typeof value === "string" && value.length > LIMITS.variableChars) throw invalidInput(`variables.${name}`, `must be at most ${LIMITS.variableChars} characters`);
  }
  const dependencies = Object.entries(input.dependencies ?? {});
  if (dependencies.length > LIMITS.dependencies) throw invalidInput("dependencies", `at most ${LIMITS.dependencies} dependency artifacts`);
  for (const [name, text] of dependencies) {
    if (text.length > LIMITS.dependencyChars) throw invalidInput(`dependencies.${name}`, `must be at most ${LIMITS.dependencyChars} characters`);
  }
  const generator = input.generator;
  if (generator.kind === "answer" && generator.answer.length > LIMITS.answerChars) throw invalidInput("generator.answer", `must be at most ${LIMITS.answerChars} characters`);
  if (generator.kind === "cassette" && !isCassetteName(generator.cassette)) throw invalidInput("generator.cassette", "must be a cassette name (letters, digits, '.', '_', '-'; no path)");
}

function checkVariables(definition: WorkflowDefinition, given: Readonly<Record<string, boolean | number | string>>): Record<string, boolean | number | string> {
  const declared = Object.keys(definition.context);
  const values: Record<string, boolean | number | string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!Object.hasOwn(definition.context, name)) throw invalidInput(`variables.${name}`, `not a context variable of "${definition.name}" (declared: ${declared.length > 0 ? declared.join(", ") : "none"})`);
    const expected = typeof definition.context[name];
    if (typeof value !== expected) throw invalidInput(`variables.${name}`, `must be a ${expected === "string" ? "text" : expected}, like its default`);
    values[name] = value;
  }
  return values;
}

/** True when a tdd guard is among the specs, composite members included. */
function hasTddGuard(specs: readonly GuardSpec[]): boolean {
  return specs.some((spec) => spec.kind === "tdd" || ((spec.kind === "all_of" || spec.kind === "any_of") && hasTddGuard(spec.guards)));
}

/**
 * Every dependency the step declares must be given (a run would have it), nothing else may be,
 * and a tdd guard needs the `test` dependency declared: in a run its absence is a wrong
 * workflow, so here it is a configuration error rather than a verdict.
 */
function checkDependencies(step: StepDefinition, stepIndex: number, given: Readonly<Record<string, string>>): Record<string, Artifact> {
  const declared = (step.guard_artifact_deps ?? []).map((guardId) => ({ guardId, name: dependencyName(guardId) }));
  const names = declared.map((dependency) => dependency.name);
  if (hasTddGuard(step.guards ?? []) && !names.includes("test")) {
    throw invalidInput(`steps[${stepIndex}].guard_artifact_deps`, `step "${step.name}" has a tdd guard, which takes its tests from the "test" dependency: add g_test to guard_artifact_deps`);
  }
  for (const name of Object.keys(given)) {
    if (!names.includes(name)) throw invalidInput(`dependencies.${name}`, `step "${step.name}" does not depend on it (its dependencies: ${names.length > 0 ? names.join(", ") : "none"})`);
  }
  const artifacts: Record<string, Artifact> = {};
  for (const { guardId, name } of declared) {
    const text = given[name];
    if (text === undefined || text.trim() === "") throw invalidInput(`dependencies.${name}`, `required: step "${step.name}" depends on ${guardId}; type its artifact or pin one from an earlier run`);
    artifacts[name] = createArtifact({ id: `step-test/${guardId}`, content: text, version: 1, parentId: null });
  }
  return Object.freeze(artifacts);
}
