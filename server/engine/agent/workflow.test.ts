import { describe, expect, it } from "vitest";
import { always, requiresGuards, type ActionPair } from "../domain/action-pair";
import { createArtifact } from "../domain/artifact";
import { failed, fatal, passed } from "../domain/guard-result";
import { createPromptTemplate } from "../domain/prompt-template";
import type { WorkflowState } from "../domain/workflow-state";
import type { Generator } from "../ports/generator";
import type { Guard, GuardDependencies } from "../ports/guard";
import { sequentialIds } from "../ports/ids";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { RecordingObserver } from "../testing/recording-observer";
import { ScriptedGenerator } from "../testing/scripted-generator";
import { guardFrom, ScriptedGuard } from "../testing/scripted-guard";
import type { WorkflowStep } from "./step";
import { dependencyIdsOf, dependencyName } from "./step";
import { DEFAULT_RMAX, executeWorkflow, extractDependencies, type WorkflowRun } from "./workflow";
import { GenerationFailedError } from "../errors";

function step(name: string, guardId: string, pair: Partial<ActionPair> & Pick<ActionPair, "generator" | "guard">, extra: Partial<WorkflowStep> = {}): WorkflowStep {
  return { name, guardId, actionPair: { precondition: always, ...pair }, guardArtifactDeps: [], ...extra };
}

function run(steps: WorkflowStep[], extra: Partial<WorkflowRun> = {}) {
  const dag = new InMemoryArtifactDag();
  const observer = new RecordingObserver();
  const promise = executeWorkflow({ steps, specification: "Implement LRU Cache", dag, observer, newId: sequentialIds("a"), ...extra });
  return { promise, dag, observer };
}

/** A guard that records the dependency objects it was handed and always passes. */
function recordingGuard() {
  const seen: GuardDependencies[] = [];
  const guard: Guard = {
    async validate(_artifact, dependencies) {
      seen.push(dependencies);
      return passed();
    },
  };
  return { guard, seen };
}

const manyReplies = (n: number) => Array.from({ length: n }, (_, i) => `v${i + 1}`);

describe("executeWorkflow: retry budgets", () => {
  it("uses DEFAULT_RMAX (3) when neither the step nor the workflow sets one", async () => {
    expect(DEFAULT_RMAX).toBe(3);
    const generator = new ScriptedGenerator(manyReplies(10));
    const { promise } = run([step("s", "g_s", { generator, guard: guardFrom(() => failed("no")) })]);
    const result = await promise;
    expect(result.status).toBe("failed");
    expect(generator.calls).toBe(4);
  });

  it("uses the workflow rmax for steps without their own", async () => {
    const generator = new ScriptedGenerator(manyReplies(10));
    const { promise } = run([step("s", "g_s", { generator, guard: guardFrom(() => failed("no")) })], { rmax: 1 });
    await promise;
    expect(generator.calls).toBe(2);
  });

  it("workflow rmax = 0 gives exactly one attempt", async () => {
    const generator = new ScriptedGenerator(manyReplies(10));
    const { promise } = run([step("s", "g_s", { generator, guard: guardFrom(() => failed("no")) })], { rmax: 0 });
    const result = await promise;
    expect(generator.calls).toBe(1);
    if (result.status !== "failed") throw new Error("expected failed");
    expect(result.reason).toContain("1 attempts");
  });

  it("a step's own rmax overrides the workflow default, including rmax = 0", async () => {
    const zero = new ScriptedGenerator(manyReplies(10));
    const five = new ScriptedGenerator(manyReplies(10));
    const guard = guardFrom((artifact) => (artifact.content === "v6" ? passed() : failed("no")));
    const first = run([step("five", "g_five", { generator: five, guard }, { rmax: 5 })], { rmax: 1 });
    expect((await first.promise).status).toBe("success");
    expect(five.calls).toBe(6);

    const second = run([step("zero", "g_zero", { generator: zero, guard: guardFrom(() => failed("no")) }, { rmax: 0 })], { rmax: 3 });
    expect((await second.promise).status).toBe("failed");
    expect(zero.calls).toBe(1);
  });

  it("each step gets its own budget and a fresh context", async () => {
    const g1 = new ScriptedGenerator(["a1", "a2"]);
    const g2 = new ScriptedGenerator(["b1", "b2"]);
    const { promise } = run(
      [
        step("one", "g_one", { generator: g1, guard: new ScriptedGuard([failed("x"), passed()]) }),
        step("two", "g_two", { generator: g2, guard: new ScriptedGuard([failed("y"), passed()]) }),
      ],
      { rmax: 1 },
    );
    expect((await promise).status).toBe("success");
    expect(g2.requests[0]!.context.feedbackHistory).toEqual([]);
    expect(g2.requests[0]!.context.currentArtifact).toBeNull();
    expect(g2.requests[1]!.context.feedbackHistory.map((entry) => entry.feedback)).toEqual(["y"]);
  });
});

describe("executeWorkflow: outcomes", () => {
  it("success maps every guard id to the artifact that satisfied it", async () => {
    const { promise, dag } = run([
      step("test", "g_test", { generator: new ScriptedGenerator(["t"]), guard: guardFrom(() => passed()) }),
      step("impl", "g_impl", { generator: new ScriptedGenerator(["i1", "i2"]), guard: new ScriptedGuard([failed("f"), passed()]) }),
    ]);
    const result = await promise;
    expect(result.status).toBe("success");
    expect(Object.keys(result.artifacts)).toEqual(["g_test", "g_impl"]);
    expect(result.artifacts.g_test?.content).toBe("t");
    expect(result.artifacts.g_impl?.content).toBe("i2");
    expect(dag.all().map((entry) => entry.artifact.id)).toEqual(["a-1", "a-2", "a-3"]);
  });

  it("exhaustion reports the failed step, a reason and the provenance, and keeps earlier artifacts", async () => {
    const { promise } = run(
      [
        step("test", "g_test", { generator: new ScriptedGenerator(["t"]), guard: guardFrom(() => passed()) }),
        step("impl", "g_impl", { generator: new ScriptedGenerator(["i1", "i2"]), guard: new ScriptedGuard([failed("f1"), failed("f2")]) }),
      ],
      { rmax: 1 },
    );
    const result = await promise;
    if (result.status !== "failed") throw new Error(`expected failed, got ${result.status}`);
    expect(result.failedStep).toBe("impl");
    expect(result.reason).toBe('Step "impl" failed after 2 attempts (retry budget exhausted)');
    expect(result.provenance.map((entry) => [entry.artifact?.content, entry.feedback])).toEqual([
      ["i1", "f1"],
      ["i2", "f2"],
    ]);
    expect(Object.keys(result.artifacts)).toEqual(["g_test"]);
  });

  it("a fatal verdict stops the workflow: later steps never run", async () => {
    const later = new ScriptedGenerator(["never"]);
    const { promise, observer } = run([
      step("impl", "g_impl", { generator: new ScriptedGenerator(["bad"]), guard: guardFrom(() => fatal("forbidden")) }),
      step("later", "g_later", { generator: later, guard: guardFrom(() => passed()) }),
    ]);
    const result = await promise;
    if (result.status !== "escalation") throw new Error(`expected escalation, got ${result.status}`);
    expect(result.failedStep).toBe("impl");
    expect(result.escalationArtifact.content).toBe("bad");
    expect(result.escalationFeedback).toBe("forbidden");
    expect(later.calls).toBe(0);
    expect(observer.events.find((event) => event.type === "step.escalated")).toEqual({
      type: "step.escalated",
      step: "impl",
      guardId: "g_impl",
      artifactId: "a-1",
      feedback: "forbidden",
    });
  });

  it("a failed precondition yields failed with that step and no generator call", async () => {
    const second = new ScriptedGenerator(["never"]);
    const { promise, observer, dag } = run([
      step("first", "g_first", { generator: new ScriptedGenerator(["ok"]), guard: guardFrom(() => passed()) }),
      step("second", "g_second", { generator: second, guard: guardFrom(() => passed()), precondition: requiresGuards(["g_missing"]) }),
    ]);
    const result = await promise;
    if (result.status !== "failed") throw new Error(`expected failed, got ${result.status}`);
    expect(result.failedStep).toBe("second");
    expect(result.provenance).toEqual([{ artifact: null, feedback: "Precondition not met" }]);
    expect(result.reason).toContain("second");
    expect(Object.keys(result.artifacts)).toEqual(["g_first"]);
    expect(second.calls).toBe(0);
    expect(dag.all()).toHaveLength(1);
    // The step never started.
    expect(observer.events.filter((event) => event.type === "step.started").map((event) => event.step)).toEqual(["first"]);
    expect(observer.types().at(-1)).toBe("run.finished");
  });

  it("preconditions see the state advanced by earlier steps, and that state is not changed by later failures", async () => {
    const seen: WorkflowState[] = [];
    const { promise, observer } = run(
      [
        step("test", "g_test", { generator: new ScriptedGenerator(["t"]), guard: guardFrom(() => passed()) }),
        step("impl", "g_impl", {
          generator: new ScriptedGenerator(["i1", "i2"]),
          guard: guardFrom(() => failed("no")),
          precondition: (state) => {
            seen.push(state);
            return requiresGuards(["g_test"])(state);
          },
        }),
      ],
      { rmax: 1 },
    );
    await promise;
    const advanced = observer.events.find((event) => event.type === "state.advanced");
    if (advanced?.type !== "state.advanced") throw new Error("no state.advanced");
    // workflow check + one per attempt, all on the state the test step produced.
    expect(seen).toHaveLength(3);
    for (const state of seen) expect(state).toBe(advanced.workflowState);
    expect(advanced.workflowState.guards).toEqual({ g_test: true });
    expect(observer.events.filter((event) => event.type === "state.advanced")).toHaveLength(1);
  });
});

describe("executeWorkflow: scoped dependencies", () => {
  it('hands {test: artifact} to a guard with guardArtifactDeps ["g_test"] and {} to a guard without deps', async () => {
    const testGuard = recordingGuard();
    const implGuard = recordingGuard();
    const docsGuard = recordingGuard();
    const { promise, observer } = run([
      step("test", "g_test", { generator: new ScriptedGenerator(["def test(): ..."]), guard: testGuard.guard }),
      step("impl", "g_impl", { generator: new ScriptedGenerator(["class X: ..."]), guard: implGuard.guard }, { guardArtifactDeps: ["g_test"] }),
      step("docs", "g_docs", { generator: new ScriptedGenerator(["# docs"]), guard: docsGuard.guard }),
    ]);
    const result = await promise;
    expect(testGuard.seen).toEqual([{}]);
    expect(docsGuard.seen).toEqual([{}]);
    expect(Object.keys(implGuard.seen[0]!)).toEqual(["test"]);
    expect(implGuard.seen[0]!.test).toBe(result.artifacts.g_test);

    const started = observer.events.filter((event) => event.type === "step.started");
    expect(started.map((event) => ("dependencyIds" in event ? event.dependencyIds : undefined))).toEqual([{}, { test: "a-1" }, {}]);
  });

  it("the same dependencies reach the guard on every retry", async () => {
    const implGuard = new ScriptedGuard([failed("f"), passed()]);
    const { promise } = run([
      step("test", "g_test", { generator: new ScriptedGenerator(["t"]), guard: guardFrom(() => passed()) }),
      step("impl", "g_impl", { generator: new ScriptedGenerator(["i1", "i2"]), guard: implGuard }, { guardArtifactDeps: ["g_test"] }),
    ]);
    const result = await promise;
    expect(implGuard.calls.map((call) => call.dependencies.test)).toEqual([result.artifacts.g_test, result.artifacts.g_test]);
  });

  it("a dependency on a guard not yet satisfied is simply absent", async () => {
    const early = recordingGuard();
    const { promise } = run([
      step("early", "g_early", { generator: new ScriptedGenerator(["e"]), guard: early.guard }, { guardArtifactDeps: ["g_late", "g_nowhere"] }),
      step("late", "g_late", { generator: new ScriptedGenerator(["l"]), guard: guardFrom(() => passed()) }),
    ]);
    expect((await promise).status).toBe("success");
    expect(early.seen).toEqual([{}]);
  });

  it("does not hand over artifacts of failed attempts or of steps not listed", async () => {
    const implGuard = recordingGuard();
    const { promise } = run([
      step("test", "g_test", { generator: new ScriptedGenerator(["t1", "t2"]), guard: new ScriptedGuard([failed("f"), passed()]) }),
      step("lint", "g_lint", { generator: new ScriptedGenerator(["l"]), guard: guardFrom(() => passed()) }),
      step("impl", "g_impl", { generator: new ScriptedGenerator(["i"]), guard: implGuard.guard }, { guardArtifactDeps: ["g_test"] }),
    ]);
    await promise;
    expect(Object.keys(implGuard.seen[0]!)).toEqual(["test"]);
    expect(implGuard.seen[0]!.test?.content).toBe("t2");
  });
});

describe("extractDependencies and dependency names", () => {
  const test = createArtifact({ id: "t", content: "t", version: 1, parentId: null });
  const spec = createArtifact({ id: "s", content: "s", version: 1, parentId: null });

  it("names a dependency by its guard id without the g_ prefix; other ids are kept as they are", () => {
    expect(dependencyName("g_test")).toBe("test");
    expect(dependencyName("spec")).toBe("spec");
    expect(dependencyName("gate")).toBe("gate");
    expect(extractDependencies(["g_test", "spec", "g_missing"], { g_test: test, spec, g_other: spec })).toEqual({ test, spec });
    expect(Object.isFrozen(extractDependencies([], {}))).toBe(true);
  });

  it("dependencyIdsOf maps names to artifact ids", () => {
    expect(dependencyIdsOf({ test, spec })).toEqual({ test: "t", spec: "s" });
  });
});

describe("executeWorkflow: observer and errors", () => {
  it("reports events in order", async () => {
    const { promise, observer } = run([
      step("test", "g_test", { generator: new ScriptedGenerator(["t"]), guard: guardFrom(() => passed()) }),
      step("impl", "g_impl", { generator: new ScriptedGenerator(["i1", "i2"]), guard: new ScriptedGuard([failed("f"), passed()]) }, { guardArtifactDeps: ["g_test"] }),
    ]);
    const result = await promise;
    expect(observer.types()).toEqual([
      "run.started",
      "step.started",
      "generator.completed",
      "guard.completed",
      "state.advanced",
      "step.started",
      "generator.completed",
      "guard.completed",
      "generator.completed",
      "guard.completed",
      "state.advanced",
      "run.finished",
    ]);
    expect(observer.events[0]).toEqual({ type: "run.started", specification: "Implement LRU Cache" });
    expect(observer.events.at(-1)).toEqual({ type: "run.finished", result });
    const advanced = observer.events.filter((event) => event.type === "state.advanced");
    expect(advanced.map((event) => [event.step, event.guardId, event.artifactId])).toEqual([
      ["test", "g_test", "a-1"],
      ["impl", "g_impl", "a-3"],
    ]);
  });

  it("reports step.exhausted before run.finished on failure", async () => {
    const { promise, observer } = run([step("s", "g_s", { generator: new ScriptedGenerator(["a", "b"]), guard: guardFrom(() => failed("x")) })], { rmax: 1 });
    await promise;
    expect(observer.types().slice(-2)).toEqual(["step.exhausted", "run.finished"]);
    expect(observer.events.at(-2)).toEqual({ type: "step.exhausted", step: "s", attempts: 2 });
  });

  it("awaits the observer before going on", async () => {
    const order: string[] = [];
    const slowObserver = {
      async record(event: { type: string }) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        order.push(event.type);
      },
    };
    const generator: Generator = {
      async generate() {
        order.push("generate");
        return { content: "x" };
      },
    };
    await executeWorkflow({ steps: [step("s", "g_s", { generator, guard: guardFrom(() => passed()) })], specification: "spec", dag: new InMemoryArtifactDag(), observer: slowObserver });
    expect(order).toEqual(["run.started", "step.started", "generate", "generator.completed", "guard.completed", "state.advanced", "run.finished"]);
  });

  it("passes the workflow constraints to every prompt as # CONTEXT", async () => {
    const template = createPromptTemplate({ role: "R", constraints: "C", task: "T" });
    const generator = new ScriptedGenerator(["x"]);
    const { promise } = run([step("s", "g_s", { generator, guard: guardFrom(() => passed()), template })], { constraints: "Python 3.12, no network" });
    await promise;
    expect(generator.prompts[0]).toBe("# ROLE\nR\n\n# CONSTRAINTS\nC\n\n# CONTEXT\nPython 3.12, no network\n\n# TASK\nT");
    expect(generator.requests[0]!.context.ambient.constraints).toBe("Python 3.12, no network");
  });

  it("propagates an error thrown by a generator instead of swallowing it", async () => {
    const boom = new Error("model endpoint unreachable");
    const generator: Generator = {
      async generate() {
        throw boom;
      },
    };
    const { promise, observer, dag } = run([step("s", "g_s", { generator, guard: guardFrom(() => passed()) })]);
    await expect(promise).rejects.toBe(boom);
    expect(observer.types()).not.toContain("run.finished");
    expect(dag.all()).toHaveLength(0);
  });

  it("propagates an error thrown by a guard", async () => {
    const guard: Guard = {
      async validate() {
        throw new Error("guard crashed");
      },
    };
    const { promise, observer } = run([step("s", "g_s", { generator: new ScriptedGenerator(["x"]), guard })]);
    await expect(promise).rejects.toThrow("guard crashed");
    expect(observer.types()).not.toContain("run.finished");
  });

  it("an empty workflow succeeds at once", async () => {
    const { promise, observer } = run([]);
    expect(await promise).toEqual({ status: "success", artifacts: {} });
    expect(observer.types()).toEqual(["run.started", "run.finished"]);
  });
});

describe("retry budgets that allow no attempt", () => {
  it.each([
    [{ rmax: -1 }, {}, /^rmax must be a whole number ≥ 0, got -1$/],
    [{}, { rmax: 1.5 }, /^Step "only": rmax must be a whole number ≥ 0, got 1.5$/],
  ])("are rejected before anything runs (%o, %o)", async (workflowOptions, stepOptions, message) => {
    const generator = new ScriptedGenerator(["never"]);
    const guard = guardFrom(() => passed());
    const observer = new RecordingObserver();
    const run = executeWorkflow({
      specification: "spec",
      dag: new InMemoryArtifactDag(),
      observer,
      ...workflowOptions,
      steps: [{ name: "only", guardId: "g_only", guardArtifactDeps: [], actionPair: { precondition: always, generator, guard }, ...stepOptions }],
    });
    await expect(run).rejects.toThrow(message);
    await expect(run).rejects.toMatchObject({ code: "INVALID_WORKFLOW" });
    expect(generator.calls).toBe(0);
    expect(observer.events).toEqual([]);
  });
});

describe("a generator that fails for good", () => {
  it("ends the step failed with the reason and the attempts so far, instead of throwing", async () => {
    let calls = 0;
    const generator: Generator = {
      generate: async () => {
        calls += 1;
        if (calls === 1) return { content: "first try" };
        throw new GenerationFailedError("The model call failed: 500 after 4 attempts");
      },
    };
    const result = await executeWorkflow({
      specification: "spec",
      dag: new InMemoryArtifactDag(),
      steps: [{ name: "implement", guardId: "g_impl", guardArtifactDeps: [], actionPair: { precondition: always, generator, guard: guardFrom(() => failed("nope")) } }],
    });
    expect(result).toMatchObject({
      status: "failed",
      failedStep: "implement",
      reason: 'Step "implement" could not generate attempt 2: The model call failed: 500 after 4 attempts',
    });
    if (result.status === "failed") expect(result.provenance.map((entry) => entry.feedback)).toEqual(["nope"]);
  });
});
