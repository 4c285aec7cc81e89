import { abortable, initialWorkflowState, isToolsPending, MemoryCallLedger, promptValues, randomIds, runDualStateAgent, type ActionPairMachineStep, type AgentOutcome, type EngineEvent, type Generator } from "@/server/engine";
import { InMemoryArtifactDag } from "@/server/engine/testing/in-memory-artifact-dag";
import { getEnv, type Env } from "@/server/env";
import { GeneratorSpecError } from "@/server/generators/generator-spec";
import { GuardSpecError } from "@/server/guards/guard-spec";
import { defaultEndpoint, type ModelDirectory } from "@/server/models/model-directory";
import { compileWorkflow, type CompileContext } from "@/server/workflows/compile";
import { cassetteDirectories } from "../cassettes/cassette-directories";
import { conflict, invalidInput, ServiceError } from "../errors";
import { attemptReport, type AttemptTrace } from "./attempt-reports";
import { withConcurrencySlot } from "./concurrency-gate";
import { observedStepGuard, type GuardObservation } from "./observed-guard";
import { prepareStepTest, type PreparedStepTest } from "./prepare-step-test";
import type { StepTestInput } from "./step-test-input";
import { STEP_TEST_LIMITS } from "./step-test-limits";
import type { StepTestOutcome, StepTestResult } from "./step-test-result";

/** Where step tests run: the configured model endpoint and cassettes, and (for tests) tighter limits. */
export interface StepTestSettings {
  /** The endpoints of Admin → Models and OPENAI_* (the web server loads them; see test-step-in-child.ts). */
  readonly models?: ModelDirectory;
  /** Without `models`: the one endpoint every call goes to. */
  readonly endpoint?: CompileContext["endpoint"];
  readonly cassetteDirectories?: readonly string[];
  readonly pythonExecutable?: string;
  readonly totalMs?: number;
  readonly perPersonConcurrency?: number;
}

export function stepTestSettingsFromEnv(env: Env = getEnv()): StepTestSettings {
  return { endpoint: { baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.OPENAI_MODEL }, cassetteDirectories: cassetteDirectories(env) };
}

/** The endpoint llm_judge guards call: the default one, as in a run (compile-workflow.ts). */
function judgeOf(settings: StepTestSettings): CompileContext["endpoint"] {
  if (!settings.models) return settings.endpoint;
  const endpoint = defaultEndpoint(settings.models);
  return endpoint && !endpoint.unusable ? { baseURL: endpoint.baseURL, apiKey: endpoint.apiKey, model: endpoint.defaultModel } : undefined;
}

/** `{run_id}` in a step test, which belongs to no run. */
export const STEP_TEST_RUN_ID = "step-test";

class StepTestTimeout extends Error {
  override readonly name = "StepTestTimeout";
}

/**
 * Runs one action-pair step of a draft workflow in isolation, the way a run's attempt runs
 * (runDualStateAgent: the same prompt rendering, answer check, guards, sandboxes and limits, and
 * feedback between attempts), and reports the prompt, output and every guard's verdict. One
 * attempt, or up to the step's retry budget when `retries` is set. Nothing is stored: the call
 * ledger and the artifact DAG are in memory and dropped afterwards.
 *
 * Bounded: inputs by STEP_TEST_LIMITS, the whole test by `totalMs` (then `timed_out`), and each
 * person to a few tests at once. `signal` (the request's) stops the model call and the sandboxes.
 * @throws ServiceError INVALID_INPUT for a bad input or a configuration error (no model, a guard
 *   that cannot run here), TOO_MANY_REQUESTS over the per-person limit, CONFLICT when cancelled.
 */
export async function testStep(input: StepTestInput, actor: { readonly id: string }, options: StepTestOptions = {}): Promise<StepTestResult> {
  const prepared = prepareStepTest(input);
  const settings = options.settings ?? stepTestSettingsFromEnv();
  return withConcurrencySlot(actor.id, settings.perPersonConcurrency ?? STEP_TEST_LIMITS.perPersonConcurrency, () => execute(prepared, input, settings, options.signal));
}

export interface StepTestOptions {
  readonly signal?: AbortSignal;
  readonly settings?: StepTestSettings;
}

/** testStep without the per-person limit, for a process whose caller holds the slot (child/run-step-test-child.ts). */
export async function runStepTest(input: StepTestInput, options: StepTestOptions = {}): Promise<StepTestResult> {
  return execute(prepareStepTest(input), input, options.settings ?? stepTestSettingsFromEnv(), options.signal);
}

function generatorOverride(input: StepTestInput, stepName: string): unknown {
  switch (input.generator.kind) {
    case "model":
      return undefined;
    case "answer":
      return { kind: "replay", cassette: { steps: { [stepName]: [input.generator.answer] } } };
    case "cassette":
      return { kind: "replay", cassette: input.generator.cassette };
  }
}

/** The step compiled as a run compiles it, alone (another step's missing model is not this test's problem). */
function compileStep(prepared: PreparedStepTest, input: StepTestInput, settings: StepTestSettings): ActionPairMachineStep {
  try {
    const machine = compileWorkflow(
      { ...prepared.definition, steps: [prepared.step] },
      { models: settings.models, endpoint: settings.endpoint, cassetteDirectories: settings.cassetteDirectories, pythonExecutable: settings.pythonExecutable, contextValues: prepared.variables, generatorOverride: generatorOverride(input, prepared.step.name) },
    );
    return machine.steps[0] as ActionPairMachineStep;
  } catch (error) {
    if (!(error instanceof GeneratorSpecError || error instanceof GuardSpecError)) throw error;
    // The step was compiled alone, as steps[0]; the message names its place in the draft.
    throw new ServiceError("INVALID_INPUT", error.message.replace(/^steps\[0\]/gm, `steps[${prepared.stepIndex}]`));
  }
}

async function execute(prepared: PreparedStepTest, input: StepTestInput, settings: StepTestSettings, signal: AbortSignal | undefined): Promise<StepTestResult> {
  const started = performance.now();
  const { definition, step, stepIndex } = prepared;
  const compiled = compileStep(prepared, input, settings);

  // What the run's observer, DAG and ledger would keep, kept here for the report instead.
  const dag = new InMemoryArtifactDag();
  const calls = new MemoryCallLedger();
  const traces = new Map<number, { generationMs: number; metadata: Readonly<Record<string, unknown>>; guards: GuardObservation[] }>();
  let current = 0;
  const traceOf = (attempt: number) => {
    let trace = traces.get(attempt);
    if (!trace) traces.set(attempt, (trace = { generationMs: 0, metadata: {}, guards: [] }));
    return trace;
  };
  const timed: Generator = {
    async generate(request) {
      current = request.attempt;
      const began = performance.now();
      try {
        return await compiled.actionPair.generator.generate(request);
      } finally {
        traceOf(request.attempt).generationMs = Math.round(performance.now() - began);
      }
    },
  };
  const guardContext = { language: step.language ?? definition.language, judge: judgeOf(settings), pythonExecutable: settings.pythonExecutable, allowEmpty: step.allow_empty === true };
  const guard = observedStepGuard(step.guards ?? [], guardContext, `steps[${stepIndex}].guards`, (observation) => traceOf(current).guards.push(observation));
  const observer = {
    async record(event: EngineEvent) {
      if (event.type === "generator.completed") traceOf(event.attempt).metadata = event.metadata;
    },
  };
  const attemptsAllowed = input.retries ? compiled.rmax + 1 : 1;

  const totalMs = settings.totalMs ?? STEP_TEST_LIMITS.totalMs;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new StepTestTimeout(`The step test took longer than ${Math.round(totalMs / 1000)} s and was stopped`)), totalMs);
  const relay = () => stop.abort(signal?.reason);
  if (signal?.aborted) relay();
  signal?.addEventListener("abort", relay, { once: true });
  let outcome: StepTestOutcome;
  try {
    const agent = await abortable(
      runDualStateAgent({
        step: { ...compiled, actionPair: { ...compiled.actionPair, generator: timed, guard } },
        rmax: attemptsAllowed - 1,
        specification: prepared.specification,
        ambient: { repository: dag, constraints: definition.constraints ?? "" },
        workflowState: initialWorkflowState,
        dependencies: prepared.dependencies,
        dag,
        observer,
        newId: randomIds,
        calls,
        variables: Object.freeze({ ...definition.context, ...prepared.variables }),
        // As the step's first turn in a run would see them: no step has run yet.
        promptValues: promptValues({
          identity: { runId: STEP_TEST_RUN_ID, workflow: definition.name },
          specification: prepared.specification,
          tick: 1,
          state: prepared.state,
          stepNames: definition.steps.map((candidate) => candidate.name),
          outputs: {},
          history: [],
          satisfied: [],
        }),
        signal: stop.signal,
      }),
      stop.signal,
    );
    outcome = outcomeOf(agent, stepIndex);
  } catch (error) {
    const reason: unknown = stop.signal.reason;
    // A tool that waits (a person, a sub-run, an outside system) suspends a run; a step test has nothing to resume.
    if (isToolsPending(error) && !stop.signal.aborted) outcome = { kind: "generation_failed", reason: waitingReason(error.waits.map((wait) => `${wait.tool} (${wait.kind})`)) };
    else if (!stop.signal.aborted) throw error;
    else if (!(reason instanceof StepTestTimeout)) throw conflict("The step test was cancelled");
    else outcome = { kind: "timed_out", reason: reason.message };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", relay);
  }

  const stored = dag.all();
  const attempts = [...traces.entries()]
    .sort(([a], [b]) => a - b)
    .map(([attempt, trace]): AttemptTrace => ({ attempt, ...trace, stored: stored.find((entry) => entry.artifact.version === attempt) }))
    .map((trace) => attemptReport(trace, step, calls.steps));
  return { step: step.name, generator: input.generator.kind, outcome, attempts, attemptsAllowed, durationMs: Math.round(performance.now() - started) };
}

function waitingReason(tools: readonly string[]): string {
  return `The agent called ${tools.join(", ")}, which wait${tools.length === 1 ? "s" : ""} for a result from outside the run: a step test cannot wait, so run the workflow to try ${tools.length === 1 ? "it" : "them"}`;
}

function outcomeOf(agent: AgentOutcome, stepIndex: number): StepTestOutcome {
  switch (agent.kind) {
    case "passed":
      return { kind: "passed" };
    case "escalation":
      return { kind: "fatal", feedback: agent.feedback };
    case "exhausted":
      return { kind: "failed", feedback: agent.provenance.at(-1)?.feedback ?? "" };
    case "generation_failed":
      return { kind: "generation_failed", reason: agent.reason };
    case "misconfigured":
      // The step cannot work as configured (or the server cannot run its guard): a configuration error, not a verdict.
      throw invalidInput(`steps[${stepIndex}].guards`, agent.reason);
    case "rejected":
      // Only a person's decision rejects, and a step test records none.
      throw new Error(`A step test cannot be rejected by a decision: ${agent.reason}`);
  }
}
