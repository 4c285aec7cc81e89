import { describe, expect, it } from "vitest";
import { always, requiresGuards, type ActionPair } from "../domain/action-pair";
import { failed, fatal, passed, type GuardResult } from "../domain/guard-result";
import { createPromptTemplate } from "../domain/prompt-template";
import { parseCondition, type ConditionNode } from "../conditions";
import type { WorkflowStep } from "../agent/step";
import { executeWorkflow } from "../agent/workflow";
import type { Artifact } from "../domain/artifact";
import type { Generator } from "../ports/generator";
import type { GuardDependencies } from "../ports/guard";
import { sequentialIds } from "../ports/ids";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { RecordingObserver } from "../testing/recording-observer";
import { ScriptedGenerator } from "../testing/scripted-generator";
import { guardFrom } from "../testing/scripted-guard";
import { GenerationFailedError, GuardUnavailableError, InvalidWorkflowError, StepConfigurationError } from "../errors";
import { linearMachine } from "./linear-machine";
import type { ActionPairMachineStep, MachineResult, MachineStep, MachineTransition, WorkflowMachine } from "./machine";
import { runMachine, type MachineRun } from "./run-machine";

const template = createPromptTemplate({ role: "You are a careful Python engineer.", constraints: "Python 3.11", task: "Implement the specification." });

function cond(source: string): ConditionNode {
  const parsed = parseCondition(source);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.expression;
}

const t = (from: string, to: string, condition = "true"): MachineTransition => ({ from, to, condition: cond(condition) });

function pair(
  name: string,
  inState: string,
  guardId: string,
  generator: Generator,
  decide: (artifact: Artifact, deps: GuardDependencies) => GuardResult,
  extra: Partial<ActionPairMachineStep> = {},
): ActionPairMachineStep {
  return {
    kind: "action_pair",
    name,
    inState,
    guardId,
    actionPair: { precondition: always, generator, guard: guardFrom(decide), template },
    guardArtifactDeps: [],
    rmax: 2,
    onFailure: "fail",
    ...extra,
  };
}

function machine(fields: Partial<WorkflowMachine> & Pick<WorkflowMachine, "states" | "steps">): WorkflowMachine {
  return { initialState: fields.states[0]!, finalStates: [fields.states.at(-1)!], transitions: [], context: {}, ...fields };
}

function start(m: WorkflowMachine, extra: Partial<MachineRun> = {}) {
  const dag = new InMemoryArtifactDag();
  const observer = new RecordingObserver();
  const calls = new MemoryCallLedger();
  const promise = runMachine(m, { specification: "Implement LRU Cache", dag, observer, calls, newId: sequentialIds("a"), ...extra });
  return { promise, dag, observer, calls };
}

/** A generator whose every reply goes through the run's ledger, so tests can read the call keys. */
function ledgerGenerator(script: readonly string[]): Generator & { calls: number } {
  const generator = {
    calls: 0,
    async generate(request: Parameters<Generator["generate"]>[0]) {
      const content = script[generator.calls++];
      if (content === undefined) throw new Error("ledgerGenerator: script exhausted");
      const outcome = await request.calls.call(`${request.callKey}/model`, { actor: "assistant", policy: "model", payload: { step: request.stepName } }, async () => ({ content }));
      if (!outcome.ok) throw new Error(outcome.error.message);
      return { content: String(outcome.result.content) };
    },
  };
  return generator;
}

function keysOf(calls: MemoryCallLedger): string[] {
  return calls.steps.filter((step) => step.type === "action_call").map((step) => step.key ?? "");
}

function expectFailed(result: MachineResult) {
  if (result.status !== "failed") throw new Error(`expected failed, got ${result.status}`);
  return result;
}

describe("runMachine: a linear machine is executeWorkflow (000 tables)", () => {
  const ws = (name: string, guardId: string, actionPair: ActionPair, guardArtifactDeps: string[] = []): WorkflowStep => ({
    name,
    guardId,
    actionPair,
    guardArtifactDeps,
    language: "python",
  });

  /** Runs the same scenario through both and compares results, events, prompts and DAG records. */
  async function parity(makeSteps: () => { steps: WorkflowStep[]; generators: ScriptedGenerator[] }, rmax: number) {
    const a = makeSteps();
    const b = makeSteps();
    const sequential = { dag: new InMemoryArtifactDag(), observer: new RecordingObserver() };
    const expected = await executeWorkflow({ steps: a.steps, rmax, specification: "spec", newId: sequentialIds("a"), ...sequential });
    const machineRun = { dag: new InMemoryArtifactDag(), observer: new RecordingObserver(), calls: new MemoryCallLedger() };
    const actual = await runMachine(linearMachine(b.steps, rmax), { specification: "spec", newId: sequentialIds("a"), ...machineRun });
    const { finalState: _f, context: _c, turns: _t, path, outputs: _o, ...result } = actual;
    expect(result).toEqual(expected);
    // The machine's escalation is resumable: it names where the decision goes and suspends the run
    // instead of finishing it. Apart from that the two record the same events.
    // It also names the state the run ended in, and the state each step started in.
    const resumable = machineRun.observer.events.map((event) => {
      if (event.type === "run.suspended" || event.type === "run.finished") {
        const { state: _state, ...rest } = event;
        return { ...rest, type: "run.finished" };
      }
      if (event.type === "step.escalated") {
        const { decisionKey: _decisionKey, ...rest } = event;
        return rest;
      }
      // The machine says which state each step ran in (the run page draws the path from it).
      if (event.type === "step.started") {
        const { state: _state, ...rest } = event;
        return rest;
      }
      return event;
    });
    expect(resumable).toEqual(sequential.observer.events);
    expect(b.generators.map((g) => g.prompts)).toEqual(a.generators.map((g) => g.prompts));
    expect(machineRun.dag.all()).toEqual(sequential.dag.all());
    return { result: actual, path, events: machineRun.observer.types() };
  }

  it("1. happy path", async () => {
    const { result, path } = await parity(() => {
      const generator = new ScriptedGenerator(["class LRUCache: ..."]);
      return { steps: [ws("implement", "g_1", { precondition: always, generator, guard: guardFrom(() => passed()), template })], generators: [generator] };
    }, 3);
    expect(result.status).toBe("success");
    expect(result.finalState).toBe("done");
    expect(path).toEqual(["implement", "done"]);
  });

  it("2. refinement loop: attempt 1's feedback reaches attempt 2's prompt", async () => {
    let generator!: ScriptedGenerator;
    const { result } = await parity(() => {
      generator = new ScriptedGenerator(["class LRUCache: put only", "class LRUCache with get"]);
      const guard = guardFrom((artifact) => (artifact.content.includes("get") ? passed() : failed("Missing get method")));
      return { steps: [ws("implement", "g_1", { precondition: always, generator, guard, template })], generators: [generator] };
    }, 3);
    expect(result.status).toBe("success");
    expect(generator.prompts[1]).toContain("GUARD REJECTION:\nMissing get method");
  });

  it("3. Rmax exhaustion: failed with the full provenance, state unchanged", async () => {
    const { result, events } = await parity(() => {
      const generator = new ScriptedGenerator(["sum = 12", "sum = 14", "sum = 10"]);
      let call = 0;
      const guard = guardFrom(() => failed(`not prime ${++call}`));
      return { steps: [ws("validate", "g_1", { precondition: always, generator, guard, template })], generators: [generator] };
    }, 2);
    const failure = expectFailed(result);
    expect(failure.failedStep).toBe("validate");
    expect(failure.provenance.map((entry) => entry.feedback)).toEqual(["not prime 1", "not prime 2", "not prime 3"]);
    expect(result.finalState).toBe("validate");
    expect(events).not.toContain("state.advanced");
  });

  it("3.5 fatal escalation: no second generator call", async () => {
    let generator!: ScriptedGenerator;
    const { result } = await parity(() => {
      generator = new ScriptedGenerator(["import os; os.system('rm -rf /')", "never"]);
      const guard = guardFrom((artifact) => (artifact.content.includes("os.system") ? fatal("Security: os.system forbidden") : passed()));
      return { steps: [ws("execute", "g_1", { precondition: always, generator, guard, template })], generators: [generator] };
    }, 3);
    expect(result.status).toBe("escalation");
    expect(generator.calls).toBe(1);
    if (result.status === "escalation") expect(result.escalationFeedback).toBe("Security: os.system forbidden");
  });

  it("4. TDD: the test artifact reaches the implementation's guard, and nothing else does", async () => {
    const seen: string[][] = [];
    const { result } = await parity(() => {
      const testWriter = new ScriptedGenerator(["def test_lru(): ..."]);
      const implementer = new ScriptedGenerator(["class LRUCache: pass", "class LRUCache: def get(self): ..."]);
      const implGuard = guardFrom((artifact, deps) => {
        seen.push(Object.values(deps).map((dep) => dep.content));
        return artifact.content.includes("get") ? passed() : failed("test_get failed");
      });
      return {
        steps: [
          ws("write_tests", "g_test", { precondition: always, generator: testWriter, guard: guardFrom((_a, deps) => (Object.keys(deps).length ? failed("deps") : passed())), template }),
          ws("implement", "g_impl", { precondition: requiresGuards(["g_test"]), generator: implementer, guard: implGuard, template }, ["g_test"]),
        ],
        generators: [testWriter, implementer],
      };
    }, 3);
    expect(result.status).toBe("success");
    expect(result.path).toEqual(["write_tests", "implement", "done"]);
    expect(seen.slice(2)).toEqual([["def test_lru(): ..."], ["def test_lru(): ..."]]);
  });

  it("a failed precondition ends the run failed as in 001", async () => {
    const generator = new ScriptedGenerator(["x"]);
    const m = linearMachine([ws("implement", "g_impl", { precondition: requiresGuards(["g_test"]), generator, guard: guardFrom(() => passed()) })]);
    const result = expectFailed(await start(m).promise);
    expect(result.reason).toBe('Precondition not met for step "implement"');
    expect(result.provenance).toEqual([{ artifact: null, feedback: "Precondition not met" }]);
    expect(generator.calls).toBe(0);
  });
});

describe("runMachine: transitions and conditions", () => {
  it('takes a "*" transition when the current state has none that applies', async () => {
    const m = machine({ states: ["a", "b", "end"], steps: [], context: { go: true }, transitions: [t("a", "end", "not go"), t("b", "end"), t("*", "b", "go")] });
    const result = await start(m).promise;
    expect(result.status).toBe("success");
    expect(result.path).toEqual(["a", "b", "end"]);
    expect(result.turns).toBe(2);
  });

  it('transitions are one list in document order: a "*" listed first takes priority', async () => {
    const m = machine({ states: ["a", "b", "end"], steps: [], context: { abort: true }, transitions: [t("*", "end", "abort"), t("a", "b"), t("b", "end")] });
    expect((await start(m).promise).path).toEqual(["a", "end"]);
    expect((await start(m, { contextOverrides: { abort: false } }).promise).path).toEqual(["a", "b", "end"]);
  });

  it("conditions read context variables (with overrides) and guard ids", async () => {
    const build = () =>
      machine({
        states: ["work", "fast", "slow", "end"],
        context: { mode: "fast", budget: 3 },
        steps: [pair("work", "work", "g_work", new ScriptedGenerator(["ok"]), () => passed())],
        transitions: [t("work", "fast", 'g_work and mode == "fast" and budget >= 3'), t("work", "slow", "g_work"), t("fast", "end"), t("slow", "end")],
      });
    expect((await start(build()).promise).path).toEqual(["work", "fast", "end"]);
    expect((await start(build(), { contextOverrides: { budget: 1 } }).promise).path).toEqual(["work", "slow", "end"]);
  });

  it("a condition naming something unknown fails the run with the state and the name", async () => {
    const m = machine({ states: ["a", "end"], steps: [], transitions: [t("a", "end", "mystery")] });
    const result = expectFailed(await start(m).promise);
    expect(result.reason).toContain('state "a"');
    expect(result.reason).toContain("mystery");
  });

  it("a state where no transition applies ends the run failed, naming the state", async () => {
    const m = machine({ states: ["a", "stuck", "end"], steps: [], context: { ok: false }, transitions: [t("a", "stuck"), t("stuck", "end", "ok")] });
    const result = expectFailed(await start(m).promise);
    expect(result.reason).toBe('No transition applies in state "stuck"');
    expect(result.failedStep).toBe("stuck");
    expect(result.finalState).toBe("stuck");
    expect(result.path).toEqual(["a", "stuck"]);
  });

  it("maxTurns ends an endless loop, naming the limit and the state", async () => {
    const m = machine({ states: ["a", "b", "end"], steps: [], transitions: [t("a", "b"), t("b", "a")] });
    const result = expectFailed(await start(m, { maxTurns: 5 }).promise);
    expect(result.reason).toBe('Turn limit of 5 reached in state "b" without reaching a final state');
    expect(result.turns).toBe(5);
    expect(result.path).toEqual(["a", "b", "a", "b", "a", "b"]);
  });

  it("an initial state that is final succeeds without a turn", async () => {
    const m = machine({ states: ["end"], steps: [] });
    const { promise, observer } = start(m);
    const result = await promise;
    expect(result).toMatchObject({ status: "success", turns: 0, path: ["end"], finalState: "end" });
    expect(observer.types()).toEqual(["run.started", "run.finished"]);
  });

  it("rejects machines naming undeclared states and undeclared overrides before running", async () => {
    await expect(runMachine(machine({ states: ["a", "end"], steps: [], transitions: [t("a", "nowhere")] }), { specification: "s", dag: new InMemoryArtifactDag() })).rejects.toThrow(InvalidWorkflowError);
    await expect(
      runMachine(machine({ states: ["a", "end"], steps: [], transitions: [t("a", "end")] }), { specification: "s", dag: new InMemoryArtifactDag(), contextOverrides: { nope: 1 } }),
    ).rejects.toThrow(/"nope"/);
  });
});

describe("runMachine: steps", () => {
  it("run_if skips a step: the next step of the state runs instead", async () => {
    const skipped = new ScriptedGenerator(["never"]);
    const used = new ScriptedGenerator(["used"]);
    const m = machine({
      states: ["s", "end"],
      context: { careful: false },
      steps: [pair("careful", "s", "g_careful", skipped, () => passed(), { runIf: cond("careful") }), pair("quick", "s", "g_quick", used, () => passed())],
      transitions: [t("s", "end", "g_quick")],
    });
    const result = await start(m).promise;
    expect(result.status).toBe("success");
    expect(skipped.calls).toBe(0);
    expect(used.calls).toBe(1);
    expect(Object.keys(result.artifacts)).toEqual(["g_quick"]);
  });

  it("a state whose steps all have run_if false runs no step and only transitions", async () => {
    const generator = new ScriptedGenerator([]);
    const m = machine({ states: ["s", "end"], context: { never: false }, steps: [{ kind: "llm", name: "talk", inState: "s", generator, runIf: cond("never") }], transitions: [t("s", "end")] });
    const result = await start(m).promise;
    expect(result.status).toBe("success");
    expect(generator.calls).toBe(0);
    expect(result.outputs).toEqual({});
  });

  it("an llm step's content becomes its output; transition_to wins over transitions", async () => {
    const generator = new ScriptedGenerator(["an idea"]);
    const m = machine({
      states: ["ideating", "other", "end"],
      steps: [{ kind: "llm", name: "ideate", inState: "ideating", generator, transitionTo: "end" }],
      transitions: [t("ideating", "other"), t("other", "end")],
    });
    const result = await start(m).promise;
    expect(result.outputs).toEqual({ ideate: "an idea" });
    expect(result.path).toEqual(["ideating", "end"]);
  });

  it("llm, transition and code steps are recorded as started and completed, the generated ones with their prompt", async () => {
    const m = machine({
      states: ["observing", "ideating", "choosing", "end"],
      context: { seen: false },
      steps: [
        { kind: "code", name: "observe", inState: "observing", run: async () => ({ updates: { seen: true } }), transitionTo: "ideating" },
        { kind: "llm", name: "ideate", inState: "ideating", generator: new ScriptedGenerator(["an idea"]), template, transitionTo: "choosing" },
        { kind: "transition", name: "choose", inState: "choosing", generator: new ScriptedGenerator(["ship"]), template, transitionMap: { ship: "end" } },
      ],
    });
    const { promise, observer } = start(m);
    expect((await promise).status).toBe("success");
    const stepEvents = observer.events.filter((event) => event.type === "step.started" || event.type === "step.completed");
    expect(stepEvents.map((event) => `${event.type}:${event.step}:${"kind" in event ? event.kind : ""}`)).toEqual([
      "step.started:observe:code",
      "step.completed:observe:code",
      "step.started:ideate:llm",
      "step.completed:ideate:llm",
      "step.started:choose:transition",
      "step.completed:choose:transition",
    ]);
    const ideated = stepEvents.find((event) => event.type === "step.completed" && event.step === "ideate");
    expect(ideated).toMatchObject({ output: "an idea", prompt: expect.stringContaining("# TASK\nImplement the specification.") });
    expect(stepEvents.find((event) => event.type === "step.completed" && event.step === "observe")).not.toHaveProperty("prompt");
  });

  it("a guard that cannot run on this server fails the step at once: no retry spent, no person asked, on_failure: skip ignored", async () => {
    const generator = new ScriptedGenerator(["print('a')", "print('b')", "print('c')"]);
    const unavailable = () => {
      throw new GuardUnavailableError("Configuration error: bubblewrap is not installed");
    };
    const m = machine({ states: ["work", "end"], steps: [pair("work", "work", "g_work", generator, unavailable, { onFailure: "skip" })], transitions: [t("work", "end", "g_work")] });
    const result = expectFailed(await start(m).promise);
    expect(result.failedStep).toBe("work");
    expect(result.reason).toBe('Step "work" cannot run as this server is configured: Configuration error: bubblewrap is not installed');
    expect(generator.calls).toBe(1);
  });

  it("a guard configured so that no attempt can pass fails the step at once, naming the workflow as the place to fix, on_failure: skip ignored", async () => {
    const generator = new ScriptedGenerator(["print('a')", "print('b')", "print('c')"]);
    let checks = 0;
    const misconfigured = () => {
      checks++;
      throw new StepConfigurationError("the tdd guard takes its tests from a dependency named test");
    };
    const m = machine({ states: ["work", "end"], steps: [pair("work", "work", "g_work", generator, misconfigured, { onFailure: "skip" })], transitions: [t("work", "end", "g_work")] });
    const result = expectFailed(await start(m).promise);
    expect(result.reason).toBe('Step "work" cannot run as the workflow configures it: the tdd guard takes its tests from a dependency named test');
    expect(generator.calls).toBe(1);
    expect(checks).toBe(1);
    // Nothing reached the model as feedback: no attempt was recorded as a failure to learn from.
    expect(result.provenance).toEqual([]);
  });

  it("an llm step whose generator reports a configuration error fails at once with the reason", async () => {
    const generator: Generator = {
      async generate() {
        throw new StepConfigurationError("the cassette has no answers for this step");
      },
    };
    const m = machine({ states: ["s", "end"], steps: [{ kind: "llm", name: "talk", inState: "s", generator }], transitions: [t("s", "end")] });
    const result = expectFailed(await start(m).promise);
    expect(result.reason).toBe('Step "talk" cannot run as the workflow configures it: the cassette has no answers for this step');
  });

  it("an llm step whose generation fails ends the run failed with the reason", async () => {
    const generator: Generator = {
      async generate() {
        throw new GenerationFailedError("model unavailable");
      },
    };
    const m = machine({ states: ["s", "end"], steps: [{ kind: "llm", name: "talk", inState: "s", generator }], transitions: [t("s", "end")] });
    const result = expectFailed(await start(m).promise);
    expect(result.failedStep).toBe("talk");
    expect(result.reason).toContain("model unavailable");
  });

  it("an llm step whose reply is empty or cut short fails, so no later prompt or condition builds on nothing", async () => {
    const blank = machine({ states: ["s", "end"], steps: [{ kind: "llm", name: "talk", inState: "s", generator: new ScriptedGenerator([" \n\u200b "]) }], transitions: [t("s", "end")] });
    const emptyResult = expectFailed(await start(blank).promise);
    expect(emptyResult.failedStep).toBe("talk");
    expect(emptyResult.reason).toContain("The reply was empty");
    const cut: Generator = {
      async generate() {
        return { content: "def f(", incomplete: "The reply was cut at 10 bytes: answer more briefly." };
      },
    };
    const cutShort = machine({ states: ["s", "end"], steps: [{ kind: "llm", name: "talk", inState: "s", generator: cut }], transitions: [t("s", "end")] });
    expect(expectFailed(await start(cutShort).promise).reason).toContain("cut at 10 bytes");
  });

  const reflecting = (answer: string) =>
    machine({
      states: ["reflecting", "implementing", "observing", "shipping"],
      finalStates: ["shipping", "implementing", "observing"],
      steps: [{ kind: "transition", name: "reflect", inState: "reflecting", generator: new ScriptedGenerator([answer]), transitionMap: { continue: "implementing", pivot: "observing", Ship: "shipping" } }],
    });

  it("a transition step's answer (trimmed, any case) chooses the branch", async () => {
    expect((await start(reflecting("  SHIP\n")).promise).path).toEqual(["reflecting", "shipping"]);
    expect((await start(reflecting("Pivot")).promise).path).toEqual(["reflecting", "observing"]);
  });

  it("a transition step's unknown answer fails the step, naming the answer and the allowed ones", async () => {
    const result = expectFailed(await start(reflecting("maybe later")).promise);
    expect(result.failedStep).toBe("reflect");
    expect(result.reason).toBe('Transition step "reflect" got the answer "maybe later", which is not one of "continue", "pivot", "Ship": answer with exactly one of them');
  });

  it("a code step updates a declared variable that a later condition reads", async () => {
    const seen: unknown[] = [];
    const m = machine({
      states: ["count", "end"],
      context: { iteration: 0 },
      steps: [
        {
          kind: "code",
          name: "bump",
          inState: "count",
          run: async (context) => {
            seen.push(context.iteration);
            return { updates: { iteration: Number(context.iteration) + 1 } };
          },
        },
      ],
      transitions: [t("count", "end", "iteration >= 3"), t("count", "count")],
    });
    const result = await start(m).promise;
    expect(result.status).toBe("success");
    expect(seen).toEqual([0, 1, 2]);
    expect(result.context).toEqual({ iteration: 3 });
    expect(result.path).toEqual(["count", "count", "count", "end"]);
  });

  it("a code step setting an undeclared variable fails naming it, and changes nothing", async () => {
    const m = machine({
      states: ["s", "end"],
      context: { declared: 1 },
      steps: [{ kind: "code", name: "sneaky", inState: "s", run: async () => ({ updates: { declared: 2, balance: 100 } }) }],
      transitions: [t("s", "end")],
    });
    const result = expectFailed(await start(m).promise);
    expect(result.failedStep).toBe("sneaky");
    expect(result.reason).toBe('Code step "sneaky" set the undeclared context variable "balance"');
    expect(result.context).toEqual({ declared: 1 });
  });

  it("a code step's sandbox error fails the run with it", async () => {
    const m = machine({ states: ["s", "end"], steps: [{ kind: "code", name: "boom", inState: "s", run: async () => ({ error: "NameError: x" }) }], transitions: [t("s", "end")] });
    expect(expectFailed(await start(m).promise).reason).toBe('Code step "boom" failed: NameError: x');
  });
});

describe("runMachine: on_failure of an action_pair step", () => {
  const exhausting = (onFailure: ActionPairMachineStep["onFailure"]) => {
    const generator = new ScriptedGenerator(["v1", "v2", "v3"]);
    const m = machine({
      states: ["work", "fallback", "end"],
      steps: [pair("work", "work", "g_work", generator, (artifact) => failed(`bad ${artifact.content}`), { rmax: 1, onFailure })],
      transitions: [t("work", "end", "g_work"), t("work", "fallback", "not g_work"), t("fallback", "end")],
    });
    return { m, generator };
  };

  it("skip: continues to the transitions without satisfying the guard, so the final state is reached without the goal", async () => {
    const { m, generator } = exhausting("skip");
    const { promise, observer } = start(m);
    const result = expectFailed(await promise);
    expect(result.reason).toBe('Goal not reached in final state "end": guard g_work (step "work") is not satisfied');
    expect(result.path).toEqual(["work", "fallback", "end"]);
    expect(result.artifacts).toEqual({});
    expect(generator.calls).toBe(2);
    expect(observer.types()).toContain("step.exhausted");
    expect(observer.types()).not.toContain("state.advanced");
  });

  it.each(["fail", "retry"] as const)("%s: the run fails once the budget is used", async (onFailure) => {
    const { m, generator } = exhausting(onFailure);
    const result = expectFailed(await start(m).promise);
    expect(generator.calls).toBe(2);
    expect(result.reason).toBe('Step "work" failed after 2 attempts (retry budget exhausted)');
    expect(result.provenance.map((entry) => entry.feedback)).toEqual(["bad v1", "bad v2"]);
  });

  it("escalate: the run ends in escalation with the last artifact and its feedback", async () => {
    const { m } = exhausting("escalate");
    const { promise, observer } = start(m);
    const result = await promise;
    if (result.status !== "escalation") throw new Error(result.status);
    expect(result.escalationArtifact.content).toBe("v2");
    expect(result.escalationFeedback).toBe("bad v2");
    expect(observer.types().slice(-3)).toEqual(["step.exhausted", "step.escalated", "run.suspended"]);
  });

  it("a fatal verdict escalates at once whatever on_failure says", async () => {
    const generator = new ScriptedGenerator(["os.system", "never"]);
    const m = machine({ states: ["work", "end"], steps: [pair("work", "work", "g_work", generator, () => fatal("forbidden"), { onFailure: "skip" })], transitions: [t("work", "end")] });
    const result = await start(m).promise;
    expect(result.status).toBe("escalation");
    expect(generator.calls).toBe(1);
  });
});

describe("runMachine: 004's loop", () => {
  it("observing → ideating → implementing → testing → reflecting → implementing → … → shipping, with distinct call keys per visit", async () => {
    const implementer = ledgerGenerator(["impl v1", "impl v2 broken", "impl v2"]);
    const tester = ledgerGenerator(["tests for v1", "tests for v2"]);
    const reflector = ledgerGenerator(["continue", " Ship "]);
    const testDeps: string[] = [];
    const steps: MachineStep[] = [
      { kind: "code", name: "observe", inState: "observing", run: async () => ({ updates: { has_context: true } }) },
      { kind: "llm", name: "ideate", inState: "ideating", generator: ledgerGenerator(["idea"]), transitionTo: "implementing" },
      pair("implement", "implementing", "g_impl", implementer, (artifact) => (artifact.content.includes("broken") ? failed("does not compile") : passed()), { transitionTo: "testing" }),
      pair(
        "test",
        "testing",
        "g_test",
        tester,
        (_artifact, deps) => {
          testDeps.push(deps.impl?.content ?? "none");
          return passed();
        },
        { guardArtifactDeps: ["g_impl"] },
      ),
      { kind: "transition", name: "reflect", inState: "reflecting", generator: reflector, transitionMap: { continue: "implementing", pivot: "observing", ship: "shipping" } },
    ];
    const m = machine({
      states: ["observing", "ideating", "implementing", "testing", "reflecting", "shipping"],
      context: { has_context: false },
      steps,
      transitions: [t("observing", "ideating", "has_context"), t("testing", "reflecting", "g_test"), t("*", "observing", "not has_context")],
    });
    const { promise, calls, observer } = start(m);
    const result = await promise;

    expect(result.status).toBe("success");
    expect(result.finalState).toBe("shipping");
    expect(result.path).toEqual(["observing", "ideating", "implementing", "testing", "reflecting", "implementing", "testing", "reflecting", "shipping"]);
    expect(result.turns).toBe(8);
    expect(result.artifacts.g_impl?.content).toBe("impl v2");
    expect(testDeps).toEqual(["impl v1", "impl v2"]);
    // Every step's latest output: code → JSON of what it set, transition → the key as the map spells it.
    expect(result.outputs).toEqual({ observe: '{"has_context":true}', ideate: "idea", implement: "impl v2", test: "tests for v2", reflect: "ship" });
    const keys = keysOf(calls);
    expect(keys).toEqual([
      "ideate/attempt-1/model",
      "implement/attempt-1/model",
      "test/attempt-1/model",
      "reflect/attempt-1/model",
      "implement#2/attempt-1/model",
      "implement#2/attempt-2/model",
      "test#2/attempt-1/model",
      "reflect#2/attempt-1/model",
    ]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(observer.types().filter((type) => type === "state.advanced")).toHaveLength(4);
  });
});
