import {
  always,
  createPromptTemplate,
  parseCondition,
  type ConditionNode,
  type Generator,
  type Guard,
  type MachineStep,
  type PromptTemplate,
  type WorkflowMachine,
} from "../../engine";
import { withEditedAttempt, type AttemptEdit } from "../../generators/fork/edited-attempt";
import { createGenerator, type GeneratorContext } from "../../generators/registry";
import { createGuard } from "../../guards/registry";
import type { GuardSpec } from "../../guards/guard-spec";
import type { ComponentDefinition, StepDefinition, WorkflowDefinition } from "../definition/types";
import { runCodeStep } from "./code-step-runner";
import { withPromptVariables } from "./prompt-variables";

export interface CompileContext {
  /** The configured OpenAI-compatible endpoint (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL). */
  readonly endpoint?: GeneratorContext["endpoint"];
  /** Replaces every step's generator, e.g. `{ kind: "replay", cassette: { steps: … } }`. */
  readonly generatorOverride?: unknown;
  /** Values of declared context variables for this run (the document's defaults otherwise). */
  readonly contextValues?: Readonly<Record<string, boolean | number | string>>;
  readonly onToken?: GeneratorContext["onToken"];
  readonly pythonExecutable?: string;
  /** Where cassettes named by documents are looked up (see generators/replay/cassette-file.ts). */
  readonly cassetteDirectories?: readonly string[];
  /** A forked run's edit of the attempt it was forked from. */
  readonly editedAttempt?: AttemptEdit;
}

/** Guards that can never escalate, which an agent may run on drafts (check_draft). */
const DRAFT_UNSAFE: ReadonlySet<string> = new Set(["security", "human", "llm_judge", "all_of", "any_of"]);

function condition(text: string | undefined, where: string): ConditionNode {
  const parsed = parseCondition(text ?? "true");
  // The validator has parsed every condition already; this only guards against a skipped validation.
  if (!parsed.ok) throw new Error(`${where}: ${parsed.message}`);
  return parsed.expression;
}

function componentsFor(step: StepDefinition, components: readonly ComponentDefinition[]): string {
  return components
    .filter((component) => component.inject_into.includes(step.name))
    .map((component) => `\n\n${component.text.trim()}`)
    .join("");
}

function template(step: StepDefinition, components: readonly ComponentDefinition[]): PromptTemplate {
  const prompt = step.prompt ?? {};
  return createPromptTemplate({
    role: prompt.role ?? "",
    constraints: prompt.constraints ?? "",
    task: `${prompt.task ?? ""}${componentsFor(step, components)}`,
    feedbackWrapper: prompt.feedback_wrapper,
  });
}

function guardOf(specs: readonly GuardSpec[], language: string, where: string, context: CompileContext, allowEmpty: boolean): Guard {
  const spec = specs.length === 1 ? specs[0] : { kind: "all_of", guards: specs };
  return createGuard(spec, { language: language as never, judge: context.endpoint, pythonExecutable: context.pythonExecutable, allowEmpty }, where);
}

/**
 * Turns a validated workflow definition into the engine's state machine: generators and guards
 * built from their objects, prompts with components appended and variables filled at generation
 * time, conditions parsed, code steps bound to the sandbox.
 * @throws GeneratorSpecError / GuardSpecError naming the field (a missing model, for example).
 */
export function compileWorkflow(definition: WorkflowDefinition, context: CompileContext = {}): WorkflowMachine {
  const contextValues = { ...definition.context, ...context.contextValues };
  const generatorFor = (step: StepDefinition, index: number): Generator => {
    const spec = context.generatorOverride ?? step.generator ?? { kind: "llm" };
    const generator = createGenerator(spec, { endpoint: context.endpoint, onToken: context.onToken, cassetteDirectories: context.cassetteDirectories }, `steps[${index}].generator`);
    const prompted = withPromptVariables(generator, contextValues);
    return context.editedAttempt ? withEditedAttempt(prompted, context.editedAttempt) : prompted;
  };

  const steps = definition.steps.map((step, index): MachineStep => {
    const common = { name: step.name, inState: step.in_state, runIf: step.run_if ? condition(step.run_if, `steps[${index}].run_if`) : undefined, transitionTo: step.transition_to };
    const language = step.language ?? definition.language;
    switch (step.type) {
      case "action_pair": {
        const where = `steps[${index}].guards`;
        const guards = step.guards ?? [];
        const draftSpecs = guards.filter((guard) => !DRAFT_UNSAFE.has(guard.kind));
        const allowEmpty = step.allow_empty === true;
        return {
          ...common,
          kind: "action_pair",
          guardId: step.guard_id ?? step.name,
          actionPair: {
            precondition: always,
            generator: generatorFor(step, index),
            guard: guardOf(guards, language, where, context, allowEmpty),
            template: template(step, definition.components),
            allowEmpty,
          },
          guardArtifactDeps: step.guard_artifact_deps ?? [],
          rmax: step.max_retries,
          onFailure: step.on_failure,
          language,
          draftGuard: draftSpecs.length > 0 ? guardOf(draftSpecs, language, where, context, allowEmpty) : undefined,
        };
      }
      case "llm":
        return { ...common, kind: "llm", generator: generatorFor(step, index), template: template(step, definition.components) };
      case "transition":
        return { ...common, kind: "transition", generator: generatorFor(step, index), template: template(step, definition.components), transitionMap: step.transition_map ?? {} };
      case "code":
        return { ...common, kind: "code", run: (values, signal) => runCodeStep(step.code ?? "", language, values, context.pythonExecutable, signal) };
    }
  });

  return {
    states: definition.state_machine.states,
    initialState: definition.state_machine.initial_state,
    finalStates: definition.state_machine.final_states,
    transitions: definition.state_machine.transitions.map((transition, index) => ({
      from: transition.from,
      to: transition.to,
      condition: condition(transition.condition, `state_machine.transitions[${index}].condition`),
    })),
    steps,
    context: definition.context,
    ...(definition.goal ? { goal: definition.goal } : {}),
  };
}
