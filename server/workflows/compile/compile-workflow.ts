import {
  always,
  createPromptTemplate,
  evaluateCondition,
  isSatisfied,
  type Precondition,
  parseCondition,
  type ConditionNode,
  type Generator,
  type Guard,
  type MachineStep,
  type PromptTemplate,
  type WorkflowMachine,
} from "../../engine";
import { withEditedAttempt, type AttemptEdit } from "../../generators/fork/edited-attempt";
import { GeneratorSpecError, parseGeneratorSpec } from "../../generators/generator-spec";
import type { Cassette } from "../../generators/replay/cassette";
import { cassetteOf, createGenerator, type GeneratorContext } from "../../generators/registry";
import { ENVIRONMENT_ENDPOINT_NAME } from "../../models/endpoint-fields";
import { defaultEndpoint, type ModelDirectory } from "../../models/model-directory";
import { resolveModel, type ModelClientConfig } from "../../models/resolve-model";
import { planRunModels } from "../../models/run-model-plan";
import { createGuard } from "../../guards/registry";
import type { GuardSpec } from "../../guards/guard-spec";
import type { GuardContext } from "../../guards/guard-context";
import type { ComponentDefinition, StepDefinition, WorkflowDefinition } from "../definition/types";
import { runCodeStep } from "./code-step-runner";
import { declaredTools } from "./tools/declared-tools";
import { checkRecordedReports } from "./tools/recorded-reports";
import { withPromptVariables } from "./prompt-variables";

export interface CompileContext {
  /**
   * The model endpoints (Admin → Models and OPENAI_*): generators call the endpoint and model they
   * resolve to (server/models/resolve-model.ts), and a model that is not configured fails the
   * compile, naming the step. Workers and the CLI pass it.
   */
  readonly models?: ModelDirectory;
  /** Without `models`: the one endpoint every step calls (tests that compile against a fake server). */
  readonly endpoint?: GeneratorContext["endpoint"];
  /**
   * Replaces every step's generator, e.g. `{ kind: "replay", cassette: { steps: … } }`; a step
   * whose own generator is an agent keeps its agent and tools, its model answering from the
   * cassette (see generators/replay/cassette.ts).
   */
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

/** 001's ρ from a condition over guard ids: true once the guards it names are satisfied as it says. */
function guardsHold(node: ConditionNode): Precondition {
  return (state) => evaluateCondition(node, (name) => isSatisfied(state, name)) === true;
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

function guardOf(specs: readonly GuardSpec[], language: string, where: string, context: CompileContext, allowEmpty: boolean, judge: GuardContext["judge"], judgeReplay?: GuardContext["judgeReplay"]): Guard {
  const spec = specs.length === 1 ? specs[0] : { kind: "all_of", guards: specs };
  return createGuard(spec, { language: language as never, judge, judgeReplay, pythonExecutable: context.pythonExecutable, allowEmpty }, where);
}

/** Whether a guard (or a member of a composite one) is an llm_judge. */
function usesJudge(spec: GuardSpec): boolean {
  return spec.kind === "llm_judge" || ((spec.kind === "all_of" || spec.kind === "any_of") && spec.guards.some(usesJudge));
}

/** A replayed run's judges answer from the cassette's verdicts for their step (own keys only). */
function judgeReplayOf(replay: ((where: string) => Cassette) | undefined, step: StepDefinition, where: string): GuardContext["judgeReplay"] {
  if (!replay) return undefined;
  const judges = replay(where).judges ?? {};
  return { stepName: step.name, verdicts: Object.hasOwn(judges, step.name) ? judges[step.name]! : [] };
}

/** The directory a compile without one uses: the given endpoint as the environment's. */
function directoryOf(context: CompileContext): ModelDirectory {
  if (context.models) return context.models;
  const endpoint = context.endpoint ?? {};
  return { endpoints: [{ name: ENVIRONMENT_ENDPOINT_NAME, source: "environment", baseURL: endpoint.baseURL, apiKey: endpoint.apiKey, defaultModel: endpoint.model, isDefault: false }] };
}

/** The client settings of a generator that calls a model; undefined for replay (and for specs createGenerator will refuse). */
function modelClientFor(spec: unknown, directory: ModelDirectory, where: string): ModelClientConfig | undefined {
  if (typeof spec !== "object" || spec === null) return undefined;
  const { kind, endpoint, model } = spec as { kind?: unknown; endpoint?: unknown; model?: unknown };
  if (kind !== "openai" && kind !== "llm" && kind !== "agent") return undefined;
  const resolved = resolveModel(directory, { endpoint: typeof endpoint === "string" ? endpoint : undefined, model: typeof model === "string" ? model : undefined });
  if (!resolved.ok) throw new GeneratorSpecError(`${where}.${resolved.field}: ${resolved.reason}`);
  return resolved.client;
}

/** The declared tools an agent generator lists (`generator.tools`); none for other generators (or an override's). */
function toolsOf(spec: unknown, definition: WorkflowDefinition, options: { pythonExecutable?: string; where: string }) {
  if (typeof spec !== "object" || spec === null) return undefined;
  const { kind, tools } = spec as { kind?: unknown; tools?: unknown };
  if (kind !== "agent" || !Array.isArray(tools)) return undefined;
  return declaredTools(definition.tools, tools.filter((name): name is string => typeof name === "string"), options);
}

/**
 * The cassette of a replay override, read when the first agent step needs it and then kept, or
 * undefined without a replay override. Problems are named at that step's generator, as the
 * replay generator of any other step names them.
 */
function replayedCassette(context: CompileContext): ((where: string) => Cassette) | undefined {
  const override = context.generatorOverride;
  if (typeof override !== "object" || override === null || (override as { kind?: unknown }).kind !== "replay") return undefined;
  let cassette: Cassette | undefined;
  return (where) => {
    if (!cassette) {
      const spec = parseGeneratorSpec(override, where);
      if (spec.kind !== "replay") throw new GeneratorSpecError(`${where}.kind: must be replay`);
      cassette = cassetteOf(spec, context, where);
    }
    return cassette;
  };
}

/**
 * Turns a validated workflow definition into the engine's state machine: generators and guards
 * built from their objects, prompts with components appended and variables filled at generation
 * time, conditions parsed, code steps bound to the sandbox.
 * @throws GeneratorSpecError / GuardSpecError naming the field (a missing model, for example).
 */
export function compileWorkflow(definition: WorkflowDefinition, context: CompileContext = {}): WorkflowMachine {
  const contextValues = { ...definition.context, ...context.contextValues };
  const directory = directoryOf(context);
  if (context.models) {
    // Run starts refuse these already; this catches an endpoint removed since the run was queued.
    const plan = planRunModels(definition, context.generatorOverride, context.models);
    if (plan.refusal) throw new GeneratorSpecError(plan.refusal);
  }
  const judgeEndpoint = defaultEndpoint(directory);
  const judge = judgeEndpoint && !judgeEndpoint.unusable ? { baseURL: judgeEndpoint.baseURL, apiKey: judgeEndpoint.apiKey, model: judgeEndpoint.defaultModel } : undefined;
  const replay = replayedCassette(context);
  const generatorFor = (step: StepDefinition, index: number): Generator => {
    const where = `steps[${index}].generator`;
    // A replayed agent is the real agent on the cassette's turns, so its tools run.
    const cassette = replay !== undefined && step.generator?.kind === "agent" ? replay(where) : undefined;
    const spec = cassette ? step.generator : (context.generatorOverride ?? step.generator ?? { kind: "llm" });
    const tools = toolsOf(spec, definition, { pythonExecutable: context.pythonExecutable, where });
    if (cassette) checkRecordedReports(cassette, definition.tools, step.generator?.kind === "agent" ? (step.generator.tools ?? []) : [], where);
    const generatorContext: GeneratorContext = cassette
      ? { onToken: context.onToken, tools, replay: cassette }
      : { endpoint: modelClientFor(spec, directory, where), onToken: context.onToken, cassetteDirectories: context.cassetteDirectories, tools };
    const generator = createGenerator(spec, generatorContext, where);
    const prompted = withPromptVariables(generator, contextValues);
    return context.editedAttempt ? withEditedAttempt(prompted, context.editedAttempt) : prompted;
  };

  const steps = definition.steps.map((step, index): MachineStep => {
    const common = { name: step.name, inState: step.in_state, runIf: step.run_if ? condition(step.run_if, `steps[${index}].run_if`) : undefined, transitionTo: step.transition_to };
    const language = step.language ?? definition.language;
    const retries = { maxRetries: step.max_retries, onFailure: step.on_failure };
    switch (step.type) {
      case "action_pair": {
        const where = `steps[${index}].guards`;
        const guards = step.guards ?? [];
        const draftSpecs = guards.filter((guard) => !DRAFT_UNSAFE.has(guard.kind));
        const allowEmpty = step.allow_empty === true;
        const judgeReplay = guards.some(usesJudge) ? judgeReplayOf(replay, step, `steps[${index}].generator`) : undefined;
        return {
          ...common,
          kind: "action_pair",
          guardId: step.guard_id ?? step.name,
          actionPair: {
            precondition: step.precondition ? guardsHold(condition(step.precondition, `steps[${index}].precondition`)) : always,
            generator: generatorFor(step, index),
            guard: guardOf(guards, language, where, context, allowEmpty, judge, judgeReplay),
            template: template(step, definition.components),
            allowEmpty,
          },
          guardArtifactDeps: step.guard_artifact_deps ?? [],
          rmax: step.max_retries,
          onFailure: step.on_failure,
          language,
          draftGuard: draftSpecs.length > 0 ? guardOf(draftSpecs, language, where, context, allowEmpty, judge, judgeReplay) : undefined,
        };
      }
      case "llm":
        return { ...common, ...retries, kind: "llm", generator: generatorFor(step, index), template: template(step, definition.components) };
      case "transition":
        return { ...common, ...retries, kind: "transition", generator: generatorFor(step, index), template: template(step, definition.components), transitionMap: step.transition_map ?? {} };
      case "code":
        return { ...common, ...retries, kind: "code", run: (values, signal) => runCodeStep(step.code ?? "", language, values, context.pythonExecutable, signal) };
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
