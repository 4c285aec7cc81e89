import type { Artifact } from "../domain/artifact";
import { composeContext, refineContext, type AmbientEnvironment } from "../domain/context";
import { initialWorkflowState, isSatisfied, satisfy, type WorkflowState } from "../domain/workflow-state";
import { goalNotReachedReason, unsatisfiedGoalGuards, type GoalGuard } from "../domain/goal";
import { parseDecision } from "../agent/decision";
import { attemptKeyOf, decisionKeyOf, exhaustedKeyOf } from "../domain/decision-keys";
import { namedStates, stepPlacement } from "../domain/in-state";
import type { ProvenanceEntry, WorkflowResult } from "../domain/workflow-result";
import { evaluateCondition, isConditionError, type ConditionLookup, type ConditionNode } from "../conditions";
import { misconfiguredReason, runDualStateAgent } from "../agent/dual-state-agent";
import { extractDependencies } from "../agent/workflow";
import { dependencyIdsOf } from "../agent/step";
import type { ArtifactDag } from "../ports/artifact-dag";
import type { CallLedger } from "../ports/call-ledger";
import { randomIds, type IdGenerator } from "../ports/ids";
import { silentObserver, type RunObserver } from "../ports/run-observer";
import { unansweredFeedback } from "../domain/answer-check";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { configurationErrorOf, InvalidWorkflowError, isEngineError } from "../errors";
import { failed, passed, type GuardResult } from "../domain/guard-result";
import { createArtifact } from "../domain/artifact";
import { stepOfOutputVariable } from "../domain/builtin-variables";
import { ACTION_HISTORY_LENGTH, promptValues, withAttempt, type RunIdentity, type StepOutputEntry } from "../domain/prompt-values";
import {
  ANY_STATE,
  type ActionPairMachineStep,
  type CodeMachineStep,
  type ContextValue,
  type LlmMachineStep,
  type MachineResult,
  type MachineStep,
  type TransitionMachineStep,
  type WorkflowMachine,
} from "./machine";
import { visitLedger } from "./visit-ledger";
import { runRetried, type RetriedOutcome } from "./retried-step";

export const DEFAULT_MAX_TURNS = 100;

export interface MachineRun {
  readonly specification: string;
  /** Ω, the global constraints every prompt sees under # CONTEXT. */
  readonly constraints?: string;
  readonly dag: ArtifactDag;
  readonly observer?: RunObserver;
  /** The run's call ledger; a fresh in-memory one when the run is not persisted. */
  readonly calls?: CallLedger;
  readonly newId?: IdGenerator;
  /** Per-run values for declared context variables; an undeclared name is an InvalidWorkflowError. */
  readonly contextOverrides?: Readonly<Record<string, ContextValue>>;
  /** Turns allowed before the run fails (loops); DEFAULT_MAX_TURNS when absent. */
  readonly maxTurns?: number;
  /**
   * Stops the run at once, at any point (a cancel, a lost lease, a worker shutting down): every
   * generator, guard and code step gets it, and runMachine rejects with the signal's reason.
   * Nothing an abort interrupted is recorded, so the run can resume from its ledger elsewhere.
   */
  readonly signal?: AbortSignal;
  /**
   * The run's id and workflow name, for the prompt variables `{run_id}`, `{workflow}` and
   * `{agent_id}`. Every caller that runs a stored run passes it; absent, they are empty.
   */
  readonly identity?: RunIdentity;
}

/** How one step's turn ended: go on (to `next`, when the step chose it) or end the run. */
type StepOutcome = { readonly kind: "continue"; readonly next?: string } | { readonly kind: "end"; readonly result: WorkflowResult };

/** An llm or transition answer taken: the step's output, and where the turn goes. */
interface UsedAnswer {
  readonly output: string;
  readonly outcome: StepOutcome;
}

/**
 * The one interpreter of workflows (issue 5, docs/workflow-format.md). Each turn:
 * 1. the step of the current state runs: the first step in list order whose `inState` names the
 *    current state and whose `runIf` holds, else the first "*" step whose `runIf` holds (none →
 *    no step this turn);
 * 2. the machine moves: to the step's `transitionTo`; for a transition step, to the state its
 *    answer selects; else to the `to` of the first transition, in list order, whose `from` is the
 *    current state or "*" and whose condition holds. Specific and wildcard transitions are one
 *    list: put a "*" transition first to make it take priority, last to make it a fallback.
 * Reaching a final state ends the run with success when the goal holds (domain/goal.ts: every
 * guard of the declared goal, or of every action pair that ran, is satisfied), and failed naming
 * the missing guards otherwise (the initial state may be final: zero turns).
 * A state with no applicable transition, a condition that cannot be evaluated, or more than
 * `maxTurns` turns end it failed; `failedStep` is then the state's name.
 *
 * Conditions and run_if see the declared context variables (defaults, then overrides, then code
 * step updates), every action_pair guard id as a boolean (satisfied or not) and every step's
 * `steps.NAME.output` as text ("" until the step has run in this run).
 *
 * Outputs: every step that succeeds has one (llm: its answer; transition: the chosen map key as
 * spelt in the map; code: the JSON text of the variables it set; action_pair: the accepted
 * artifact's content). Generations get them, with the built-in prompt variables, as
 * `GenerationRequest.promptValues` taken when the step starts. Each attempt of an llm, code or
 * transition step is an artifact in the DAG (`stepKind` says which; the successful one passed,
 * the failed ones with their reason, chained by parentId), and its event (`step.completed`,
 * `step.attempt_failed`) names it; a resumed run reads outputs back from those events.
 *
 * action_pair steps run through runDualStateAgent exactly as in executeWorkflow (same events,
 * same DAG records); a revisited state's calls are keyed `<step>#<visit>/attempt-<n>`. llm,
 * transition and code steps retry a failed attempt up to their maxRetries, then their onFailure
 * decides (see RetriedStep in machine.ts); their calls are keyed the same way.
 */
export async function runMachine(machine: WorkflowMachine, run: MachineRun): Promise<MachineResult> {
  assertRunnable(machine, run);
  const observer = run.observer ?? silentObserver;
  const newId = run.newId ?? randomIds;
  const calls = run.calls ?? new MemoryCallLedger();
  const maxTurns = run.maxTurns ?? DEFAULT_MAX_TURNS;
  const ambient: AmbientEnvironment = Object.freeze({ repository: run.dag, constraints: run.constraints ?? "" });
  const finalStates = new Set(machine.finalStates);
  const guardIds = new Set(machine.steps.flatMap((step) => (step.kind === "action_pair" ? [step.guardId] : [])));
  const declaredGoal = machine.goal?.map((guardId) => goalGuardOf(machine, guardId));
  /** Guard → step of every action pair that ran, in order: the goal when none is declared. */
  const ranGuards = new Map<string, GoalGuard>();

  const variables: Record<string, ContextValue> = { ...machine.context, ...run.contextOverrides };
  const artifacts: Record<string, Artifact> = {};
  const outputs: Record<string, string> = {};
  /** The latest outputs in the order produced, for `{last_output}` and `{action_history}`. */
  const history: StepOutputEntry[] = [];
  const identity: RunIdentity = run.identity ?? { runId: "", workflow: "" };
  const stepNames = machine.steps.map((step) => step.name);
  const knownSteps = new Set(stepNames);
  const stepOfGuard = new Map(machine.steps.flatMap((step) => (step.kind === "action_pair" ? [[step.guardId, step.name] as const] : [])));
  const visits = new Map<string, number>();
  let workflowState: WorkflowState = initialWorkflowState;
  let current = machine.initialState;
  const path = [current];
  let turns = 0;
  let suspensionKey = "run";

  const lookup: ConditionLookup = (name) => {
    const outputStep = stepOfOutputVariable(name);
    if (outputStep !== undefined && knownSteps.has(outputStep)) return outputs[outputStep] ?? "";
    if (Object.hasOwn(variables, name)) return variables[name];
    return guardIds.has(name) ? isSatisfied(workflowState, name) : undefined;
  };

  /** A step succeeded with `output`: later prompts and conditions see it. */
  const produced = (step: string, output: string) => {
    outputs[step] = output;
    history.push({ step, output });
    if (history.length > ACTION_HISTORY_LENGTH) history.shift();
  };
  /** The built-in prompt variables and step outputs as they are now (a step takes them when it starts). */
  const currentPromptValues = () =>
    promptValues({
      identity,
      specification: run.specification,
      tick: turns,
      state: current,
      stepNames,
      outputs,
      history,
      satisfied: Object.keys(workflowState.guards)
        .filter((guardId) => isSatisfied(workflowState, guardId))
        .map((guardId) => ({ guardId, step: stepOfGuard.get(guardId) ?? guardId })),
    });

  await observer.record({ type: "run.started", specification: run.specification }, "run.started");
  const finish = async (result: WorkflowResult): Promise<MachineResult> => {
    // An escalation suspends the run until a person decides; everything else ends it.
    if (result.status === "escalation") await observer.record({ type: "run.suspended", result, state: current }, `${suspensionKey}/suspended`);
    else await observer.record({ type: "run.finished", result, state: current }, "run.finished");
    return { ...result, finalState: current, context: Object.freeze({ ...variables }), turns, path: [...path], outputs: { ...outputs } };
  };
  const machineFailure = (reason: string): WorkflowResult => ({
    status: "failed",
    artifacts: { ...artifacts },
    failedStep: current,
    reason,
    provenance: [],
  });

  /** Evaluates a condition; a ConditionError becomes a reason, anything else propagates. */
  const holds = (condition: ConditionNode, where: string): boolean | string => {
    try {
      return evaluateCondition(condition, lookup);
    } catch (error) {
      if (!isConditionError(error)) throw error;
      return `Cannot evaluate ${where} in state "${current}": ${error.message}`;
    }
  };

  for (;;) {
    run.signal?.throwIfAborted();
    if (finalStates.has(current)) {
      const missing = unsatisfiedGoalGuards(workflowState, declaredGoal ?? [...ranGuards.values()]);
      if (missing.length > 0) return finish(machineFailure(goalNotReachedReason(current, missing)));
      return finish({ status: "success", artifacts: { ...artifacts } });
    }
    if (turns >= maxTurns) return finish(machineFailure(`Turn limit of ${maxTurns} reached in state "${current}" without reaching a final state`));
    turns++;

    const chosen = chooseStep();
    if (typeof chosen === "string") return finish(machineFailure(chosen));
    const step = chosen;

    let next: string | undefined;
    if (step) {
      const active = step;
      const visit = (visits.get(step.name) ?? 0) + 1;
      visits.set(step.name, visit);
      const stepCalls = visitLedger(calls, step.name, visit);
      const keyPrefix = visit <= 1 ? step.name : `${step.name}#${visit}`;
      let outcome: StepOutcome;
      switch (active.kind) {
        case "action_pair":
          outcome = await runActionPair(active, stepCalls, keyPrefix);
          break;
        case "llm":
          outcome = await runGeneration(active, stepCalls, keyPrefix, (content) => ({ output: content, outcome: { kind: "continue" } }));
          break;
        case "transition":
          outcome = await runGeneration(active, stepCalls, keyPrefix, (content) => chooseTransition(active, content));
          break;
        case "code":
          outcome = await runCode(active, keyPrefix);
          break;
      }
      if (outcome.kind === "end") return finish(outcome.result);
      next = outcome.next ?? active.transitionTo;
    }

    if (next === undefined) {
      for (const transition of machine.transitions) {
        if (transition.from !== current && transition.from !== ANY_STATE) continue;
        const taken = holds(transition.condition, `the condition of the transition ${transition.from} → ${transition.to}`);
        if (typeof taken === "string") return finish(machineFailure(taken));
        if (taken) {
          next = transition.to;
          break;
        }
      }
    }
    if (next === undefined) return finish(machineFailure(`No transition applies in state "${current}"`));
    current = next;
    path.push(current);
  }

  /**
   * The step of this turn: the first, in list order, that names the current state and whose
   * run_if holds; failing that, the first "*" step whose run_if holds (domain/in-state.ts). A
   * condition that cannot be evaluated comes back as the run's failure reason.
   */
  function chooseStep(): MachineStep | undefined | string {
    for (const placement of ["named", "fallback"] as const) {
      for (const candidate of machine.steps) {
        if (stepPlacement(candidate.inState, current) !== placement) continue;
        if (candidate.runIf) {
          const runs = holds(candidate.runIf, `run_if of step "${candidate.name}"`);
          if (typeof runs === "string") return runs;
          if (!runs) continue;
        }
        return candidate;
      }
    }
    return undefined;
  }

  async function runActionPair(step: ActionPairMachineStep, stepCalls: CallLedger, keyPrefix: string): Promise<StepOutcome> {
    const failedResult = (reason: string, provenance: readonly ProvenanceEntry[]): StepOutcome => ({
      kind: "end",
      result: { status: "failed", artifacts: { ...artifacts }, failedStep: step.name, reason, provenance },
    });
    if (!step.actionPair.precondition(workflowState)) {
      return failedResult(`Precondition not met for step "${step.name}"`, [{ artifact: null, feedback: "Precondition not met" }]);
    }
    if (!ranGuards.has(step.guardId)) ranGuards.set(step.guardId, { guardId: step.guardId, step: step.name });
    const dependencies = extractDependencies(step.guardArtifactDeps, artifacts);
    await observer.record({ type: "step.started", step: step.name, guardId: step.guardId, dependencyIds: dependencyIdsOf(dependencies), state: current }, `${keyPrefix}/started`);
    const outcome = await runDualStateAgent({
      step,
      rmax: step.rmax,
      specification: run.specification,
      ambient,
      workflowState,
      dependencies,
      dag: run.dag,
      observer,
      newId,
      calls: stepCalls,
      keyPrefix,
      variables: Object.freeze({ ...variables }),
      promptValues: currentPromptValues(),
      signal: run.signal,
    });
    const escalate = async (artifact: Artifact, feedback: string, decisionKey: string): Promise<StepOutcome> => {
      suspensionKey = decisionKey;
      await observer.record({ type: "step.escalated", step: step.name, guardId: step.guardId, artifactId: artifact.id, feedback, decisionKey }, `${decisionKey}/escalated`);
      return {
        kind: "end",
        result: { status: "escalation", artifacts: { ...artifacts }, failedStep: step.name, escalationArtifact: artifact, escalationFeedback: feedback },
      };
    };
    switch (outcome.kind) {
      case "passed":
        workflowState = outcome.workflowState;
        artifacts[step.guardId] = outcome.artifact;
        produced(step.name, outcome.artifact.content);
        await observer.record({ type: "state.advanced", step: step.name, guardId: step.guardId, artifactId: outcome.artifact.id, workflowState }, `${keyPrefix}/advanced`);
        return { kind: "continue" };
      case "escalation":
        return escalate(outcome.artifact, outcome.feedback, outcome.decisionKey);
      case "rejected":
        return failedResult(outcome.reason, [{ artifact: outcome.artifact, feedback: outcome.reason }]);
      case "exhausted": {
        await observer.record({ type: "step.exhausted", step: step.name, attempts: outcome.attempts }, exhaustedKeyOf(keyPrefix));
        if (step.onFailure === "skip") return { kind: "continue" };
        const last = outcome.provenance.at(-1);
        if (step.onFailure === "escalate" && last?.artifact) {
          const decisionKey = decisionKeyOf(exhaustedKeyOf(keyPrefix));
          const decision = parseDecision(await observer.recall?.(decisionKey));
          if (!decision) return escalate(last.artifact, last.feedback, decisionKey);
          if (decision.kind === "approve") {
            workflowState = satisfy(workflowState, step.guardId, last.artifact.id);
            artifacts[step.guardId] = last.artifact;
            produced(step.name, last.artifact.content);
            await observer.record({ type: "state.advanced", step: step.name, guardId: step.guardId, artifactId: last.artifact.id, workflowState }, `${keyPrefix}/advanced`);
            return { kind: "continue" };
          }
          if (decision.kind === "reject") return failedResult(decision.reason, outcome.provenance);
          // The decision service refuses an edit here; a hand-written one ends the run rather than skipping the guard.
          if (decision.kind === "edit_and_approve") return failedResult(`Step "${step.name}": an edited artifact cannot be approved after the retry budget was spent`, outcome.provenance);
          return failedResult(`Step "${step.name}" was sent back after its retry budget was spent: ${decision.feedback}`, outcome.provenance);
        }
        return failedResult(`Step "${step.name}" failed after ${outcome.attempts} attempts (retry budget exhausted)`, outcome.provenance);
      }
      case "generation_failed":
        if (step.onFailure === "skip") return { kind: "continue" };
        return failedResult(`Step "${step.name}" could not generate attempt ${outcome.attempts}: ${outcome.reason}`, outcome.provenance);
      case "misconfigured":
        // Skipping would hide a broken installation or document: the run fails whatever on_failure says.
        return failedResult(misconfiguredReason(step.name, outcome), outcome.provenance);
    }
  }

  /**
   * An llm or transition step: a generation without a guard, retried within the step's budget when
   * the call fails, the answer is empty or cut short, or `use` refuses it (a transition answer not
   * in the map); attempt n's model call is keyed `<step>/attempt-<n>`, so a resumed run replays it.
   * `use` turns an answer into the step's output and where it leads.
   */
  async function runGeneration(
    step: LlmMachineStep | TransitionMachineStep,
    stepCalls: CallLedger,
    keyPrefix: string,
    use: (content: string) => UsedAnswer | { readonly refused: string },
  ): Promise<StepOutcome> {
    const key = `${keyPrefix}/completed`;
    const recalled = await observer.recall?.(key);
    if (recalled && typeof recalled.output === "string") {
      const used = use(recalled.output);
      if (!("refused" in used)) {
        produced(step.name, used.output);
        return used.outcome;
      }
    }
    await observer.record({ type: "step.started", step: step.name, kind: step.kind, state: current }, `${keyPrefix}/started`);
    let context = composeContext(ambient, run.specification);
    // Taken once: every attempt of this step sees the run as it was when the step started.
    const values = currentPromptValues();
    const attempts = attemptChain(step, keyPrefix);
    const outcome = await runRetried<UsedAnswer & { readonly prompt?: string }>(
      step,
      async (attempt) => {
        let generation;
        try {
          generation = await step.generator.generate({
            context,
            template: step.template,
            stepName: step.name,
            attempt,
            calls: stepCalls,
            callKey: attemptKeyOf(step.name, attempt),
            dependencies: Object.freeze({}),
            variables: Object.freeze({ ...variables }),
            promptValues: withAttempt(values, attempt),
            signal: run.signal,
          });
        } catch (error) {
          const misconfigured = configurationErrorOf(error);
          if (misconfigured) return { kind: "misconfigured", reason: misconfiguredReason(step.name, misconfigured) };
          if (!isEngineError(error, "GENERATION_FAILED")) throw error;
          return { kind: "failed", reason: `Step "${step.name}" could not generate: ${error.message}` };
        }
        run.signal?.throwIfAborted();
        // An empty or cut-short reply is not an output a later prompt or condition may build on.
        const unanswered = unansweredFeedback(generation, false);
        if (unanswered !== undefined) return { kind: "failed", reason: `Step "${step.name}" got no usable answer: ${unanswered}`, answer: generation.content, feedback: unanswered };
        const used = use(generation.content);
        if ("refused" in used) return { kind: "failed", reason: used.refused, answer: generation.content, feedback: used.refused };
        const prompt = typeof generation.metadata?.prompt === "string" ? generation.metadata.prompt : undefined;
        return { kind: "done", value: { ...used, prompt } };
      },
      async (attempt, failure) => {
        await attempts.failed(attempt, failure.answer ?? "", failure.reason);
        if (failure.feedback !== undefined) context = refineContext(context, failure.answer ?? "", failure.feedback);
      },
    );
    if (outcome.kind !== "done") return afterFailure(step, keyPrefix, outcome);
    const { output, prompt } = outcome.value;
    const artifactId = await attempts.accepted(outcome.attempts, output);
    produced(step.name, output);
    const to = outcome.value.outcome.kind === "continue" ? outcome.value.outcome.next : undefined;
    await observer.record(
      { type: "step.completed", step: step.name, kind: step.kind, output, artifactId, state: current, ...(to !== undefined ? { to } : {}), ...(prompt !== undefined ? { prompt } : {}) },
      key,
    );
    return outcome.value.outcome;
  }

  /** The state a transition step's answer (trimmed, any case) selects, or feedback naming the allowed answers. */
  function chooseTransition(step: TransitionMachineStep, content: string): UsedAnswer | { readonly refused: string } {
    const answer = content.trim().toLowerCase();
    const match = Object.entries(step.transitionMap).find(([key]) => key.trim().toLowerCase() === answer);
    // The output is the key as the map spells it, whatever case the model answered in.
    if (match) return { output: match[0], outcome: { kind: "continue", next: match[1] } };
    const allowed = Object.keys(step.transitionMap).map((key) => `"${key}"`).join(", ");
    return { refused: `Transition step "${step.name}" got the answer "${content.trim()}", which is not one of ${allowed}: answer with exactly one of them` };
  }

  /**
   * The DAG records of one visit of an llm, code or transition step: attempt n is the artifact
   * `<keyPrefix>/attempt-<n>`, refining the one before. A failed attempt is stored with its reason
   * and recorded once (a resumed run that replays it finds its event and adds nothing).
   */
  function attemptChain(step: LlmMachineStep | TransitionMachineStep | CodeMachineStep, keyPrefix: string) {
    let parentId: string | null = null;
    const store = async (attempt: number, content: string, result: GuardResult): Promise<string> => {
      const id = newId(attemptKeyOf(keyPrefix, attempt));
      const artifact = createArtifact({ id, content, version: attempt, parentId });
      try {
        await run.dag.store({ artifact, stepName: step.name, guardId: "", result, dependencyIds: {}, language: step.kind === "code" ? "json" : null, stepKind: step.kind });
      } catch (error) {
        // A replayed attempt (its event lost with a crash, its row kept) stores the same content again.
        if (!isEngineError(error, "ARTIFACT_EXISTS") || (await run.dag.get(id)).artifact.contentHash !== artifact.contentHash) throw error;
      }
      parentId = id;
      return id;
    };
    return {
      failed: async (attempt: number, content: string, reason: string) => {
        const failedKey = `${attemptKeyOf(keyPrefix, attempt)}/failed`;
        const recorded = await observer.recall?.(failedKey);
        if (recorded) {
          parentId = typeof recorded.artifactId === "string" ? recorded.artifactId : parentId;
          return;
        }
        const artifactId = await store(attempt, content, failed(reason));
        await observer.record({ type: "step.attempt_failed", step: step.name, kind: step.kind, attempt, reason, artifactId }, failedKey);
      },
      accepted: (attempt: number, content: string) => store(attempt, content, passed()),
    };
  }

  /** A code step in the sandbox; code that raises, or sets what it may not, runs again within the step's budget. */
  async function runCode(step: CodeMachineStep, keyPrefix: string): Promise<StepOutcome> {
    const key = `${keyPrefix}/completed`;
    const recalled = await observer.recall?.(key);
    if (recalled && typeof recalled.updates === "object" && recalled.updates !== null) {
      Object.assign(variables, recalled.updates);
      produced(step.name, typeof recalled.output === "string" ? recalled.output : JSON.stringify(recalled.updates));
      return { kind: "continue" };
    }
    await observer.record({ type: "step.started", step: step.name, kind: "code", state: current }, `${keyPrefix}/started`);
    const attempts = attemptChain(step, keyPrefix);
    const outcome = await runRetried<Readonly<Record<string, ContextValue>>>(
      step,
      async () => {
        let result;
        try {
          result = await step.run(Object.freeze({ ...variables }), run.signal);
          run.signal?.throwIfAborted();
        } catch (error) {
          // An abort is not the code's failure: it ends the turn, and the run resumes elsewhere.
          if (run.signal?.aborted) throw run.signal.reason;
          const misconfigured = configurationErrorOf(error);
          if (misconfigured) return { kind: "misconfigured", reason: misconfiguredReason(step.name, misconfigured) };
          return { kind: "failed", reason: `Code step "${step.name}" failed: ${error instanceof Error ? error.message : String(error)}` };
        }
        if ("error" in result) return { kind: "failed", reason: `Code step "${step.name}" failed: ${result.error}` };
        for (const [name, value] of Object.entries(result.updates)) {
          if (!Object.hasOwn(machine.context, name)) return { kind: "failed", reason: `Code step "${step.name}" set the undeclared context variable "${name}"` };
          if (!isContextValue(value)) return { kind: "failed", reason: `Code step "${step.name}" set "${name}" to a value that is not a boolean, number or text` };
        }
        return { kind: "done", value: result.updates };
      },
      async (attempt, failure) => {
        await attempts.failed(attempt, "", failure.reason);
      },
    );
    if (outcome.kind !== "done") return afterFailure(step, keyPrefix, outcome);
    Object.assign(variables, outcome.value);
    const output = JSON.stringify(outcome.value);
    const artifactId = await attempts.accepted(outcome.attempts, output);
    produced(step.name, output);
    await observer.record({ type: "step.completed", step: step.name, kind: "code", output, updates: outcome.value, artifactId, state: current }, key);
    return { kind: "continue" };
  }

  /**
   * An llm, code or transition step that did not succeed: a configuration error fails at once;
   * a spent budget is recorded, then `skip` goes on as though the step had not run (its
   * transition_to, else the state's transitions) and anything else fails naming the step.
   */
  async function afterFailure(step: LlmMachineStep | TransitionMachineStep | CodeMachineStep, keyPrefix: string, outcome: Exclude<RetriedOutcome<unknown>, { kind: "done" }>): Promise<StepOutcome> {
    if (outcome.kind === "misconfigured") return stepFailure(step, outcome.reason);
    await observer.record({ type: "step.exhausted", step: step.name, attempts: outcome.attempts }, exhaustedKeyOf(keyPrefix));
    if (step.onFailure === "skip") return { kind: "continue" };
    return stepFailure(step, outcome.reason);
  }

  function stepFailure(step: MachineStep, reason: string): StepOutcome {
    return { kind: "end", result: { status: "failed", artifacts: { ...artifacts }, failedStep: step.name, reason, provenance: [] } };
  }
}

/** The declared goal's guard with the step that satisfies it; assertRunnable has checked it exists. */
function goalGuardOf(machine: WorkflowMachine, guardId: string): GoalGuard {
  const step = machine.steps.find((candidate) => candidate.kind === "action_pair" && candidate.guardId === guardId);
  return { guardId, step: step?.name ?? guardId };
}

function isContextValue(value: unknown): value is ContextValue {
  return typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)) || typeof value === "string";
}

/** Rejects a machine that names undeclared states or bad budgets, and bad overrides, before anything runs. */
function assertRunnable(machine: WorkflowMachine, run: MachineRun): void {
  const states = new Set(machine.states);
  const requireState = (state: string, where: string) => {
    if (!states.has(state)) throw new InvalidWorkflowError(`${where} names the undeclared state "${state}"`);
  };
  requireState(machine.initialState, "initialState");
  machine.finalStates.forEach((state) => requireState(state, "finalStates"));
  for (const transition of machine.transitions) {
    if (transition.from !== ANY_STATE) requireState(transition.from, `Transition ${transition.from} → ${transition.to}`);
    requireState(transition.to, `Transition ${transition.from} → ${transition.to}`);
  }
  for (const step of machine.steps) {
    namedStates(step.inState).forEach((state) => requireState(state, `Step "${step.name}" inState`));
    if (Array.isArray(step.inState) && step.inState.length === 0) throw new InvalidWorkflowError(`Step "${step.name}": inState lists no state`);
    if (step.transitionTo !== undefined) requireState(step.transitionTo, `Step "${step.name}" transitionTo`);
    if (step.kind === "transition") Object.values(step.transitionMap).forEach((to) => requireState(to, `Step "${step.name}" transitionMap`));
    if (step.kind === "action_pair" && !(Number.isInteger(step.rmax) && step.rmax >= 0)) {
      throw new InvalidWorkflowError(`Step "${step.name}": rmax must be a whole number ≥ 0, got ${step.rmax}`);
    }
    if (step.kind !== "action_pair") {
      if (step.maxRetries !== undefined && !(Number.isInteger(step.maxRetries) && step.maxRetries >= 0)) {
        throw new InvalidWorkflowError(`Step "${step.name}": maxRetries must be a whole number ≥ 0, got ${step.maxRetries}`);
      }
      // Only an action pair has a guarded artifact a person can review (see RetriedStep).
      if (step.onFailure === "escalate") throw new InvalidWorkflowError(`Step "${step.name}": on_failure "escalate" is for action_pair steps; a ${step.kind} step can retry, skip or fail`);
    }
  }
  const guardIds = new Set(machine.steps.flatMap((step) => (step.kind === "action_pair" ? [step.guardId] : [])));
  for (const guardId of machine.goal ?? []) {
    if (!guardIds.has(guardId)) throw new InvalidWorkflowError(`goal names "${guardId}", which is not the guard id of any action_pair step`);
  }
  for (const [name, value] of Object.entries(run.contextOverrides ?? {})) {
    if (!Object.hasOwn(machine.context, name)) throw new InvalidWorkflowError(`Context override "${name}" is not a declared context variable`);
    if (!isContextValue(value)) throw new InvalidWorkflowError(`Context override "${name}" must be a boolean, number or text`);
  }
  if (run.maxTurns !== undefined && !(Number.isInteger(run.maxTurns) && run.maxTurns >= 0)) {
    throw new InvalidWorkflowError(`maxTurns must be a whole number ≥ 0, got ${run.maxTurns}`);
  }
}
