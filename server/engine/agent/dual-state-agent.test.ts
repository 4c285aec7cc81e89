import { MemoryCallLedger } from "../run/memory-call-ledger";
import { describe, expect, it } from "vitest";
import { always, type Precondition } from "../domain/action-pair";
import type { Artifact } from "../domain/artifact";
import { failed, fatal, passed, type GuardResult } from "../domain/guard-result";
import { initialWorkflowState, satisfy, type WorkflowState } from "../domain/workflow-state";
import type { Guard, GuardDependencies } from "../ports/guard";
import { sequentialIds } from "../ports/ids";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { RecordingObserver } from "../testing/recording-observer";
import { ScriptedGenerator } from "../testing/scripted-generator";
import { guardFrom, ScriptedGuard } from "../testing/scripted-guard";
import { runDualStateAgent, type AgentInput } from "./dual-state-agent";
import type { WorkflowStep } from "./step";

function agentInput(options: {
  script: string[];
  guard: Guard;
  rmax: number;
  workflowState?: WorkflowState;
  dependencies?: GuardDependencies;
  precondition?: Precondition;
}) {
  const generator = new ScriptedGenerator(options.script);
  const dag = new InMemoryArtifactDag();
  const observer = new RecordingObserver();
  const step: WorkflowStep = {
    name: "implement",
    guardId: "g_impl",
    actionPair: { precondition: options.precondition ?? always, generator, guard: options.guard },
    guardArtifactDeps: [],
    language: "python",
  };
  const input: AgentInput = {
    step,
    rmax: options.rmax,
    specification: "Implement LRU Cache",
    ambient: { repository: dag, constraints: "" },
    workflowState: options.workflowState ?? initialWorkflowState,
    dependencies: options.dependencies ?? {},
    calls: new MemoryCallLedger(),
    dag,
    observer,
    newId: sequentialIds("a"),
  };
  return { input, generator, dag, observer };
}

const alwaysFail = (feedback = "nope") => guardFrom(() => failed(feedback));

describe("runDualStateAgent: retry budget", () => {
  it("rmax = 0 makes exactly one attempt", async () => {
    const { input, generator, dag } = agentInput({ script: ["v1", "v2"], guard: alwaysFail(), rmax: 0 });
    const outcome = await runDualStateAgent(input);
    expect(outcome.kind).toBe("exhausted");
    expect(outcome.attempts).toBe(1);
    expect(generator.calls).toBe(1);
    expect(dag.all()).toHaveLength(1);
  });

  it.each([1, 2, 5])("rmax = %i makes rmax + 1 attempts on persistent failure", async (rmax) => {
    const script = Array.from({ length: rmax + 2 }, (_, i) => `v${i + 1}`);
    const guard = alwaysFail();
    const { input, generator, dag } = agentInput({ script, guard, rmax });
    const outcome = await runDualStateAgent(input);
    expect(outcome.kind).toBe("exhausted");
    expect(outcome.attempts).toBe(rmax + 1);
    expect(generator.calls).toBe(rmax + 1);
    expect(guard.calls).toBe(rmax + 1);
    expect(dag.all()).toHaveLength(rmax + 1);
    if (outcome.kind !== "exhausted") return;
    expect(outcome.provenance.map((entry) => entry.artifact?.content)).toEqual(script.slice(0, rmax + 1));
  });

  it("stops at the first pass, leaving the rest of the budget unused", async () => {
    const guard = new ScriptedGuard([failed("a"), passed()]);
    const { input, generator } = agentInput({ script: ["v1", "v2", "v3"], guard, rmax: 5 });
    const outcome = await runDualStateAgent(input);
    expect(outcome.kind).toBe("passed");
    expect(outcome.attempts).toBe(2);
    expect(generator.calls).toBe(2);
  });
});

describe("runDualStateAgent: Definition 4, workflow state stable on failure", () => {
  it("evaluates ρ on the very same state object on every attempt, and never changes it", async () => {
    const start = satisfy(initialWorkflowState, "g_test", "t-1");
    const snapshot = structuredClone(start);
    const seen: WorkflowState[] = [];
    const precondition: Precondition = (state) => {
      seen.push(state);
      return true;
    };
    const { input } = agentInput({ script: ["v1", "v2", "v3"], guard: alwaysFail(), rmax: 2, workflowState: start, precondition });
    const outcome = await runDualStateAgent(input);

    expect(outcome.kind).toBe("exhausted");
    expect(seen).toHaveLength(3);
    for (const state of seen) expect(state).toBe(start);
    expect(input.workflowState).toBe(start);
    expect(start).toEqual(snapshot);
    expect("workflowState" in outcome).toBe(false);
  });

  it("a pass returns a new state with the guard satisfied, and the input state is untouched", async () => {
    const start = satisfy(initialWorkflowState, "g_test", "t-1");
    const { input } = agentInput({ script: ["v1", "v2"], guard: new ScriptedGuard([failed("x"), passed()]), rmax: 3, workflowState: start });
    const outcome = await runDualStateAgent(input);
    if (outcome.kind !== "passed") throw new Error(`expected passed, got ${outcome.kind}`);
    expect(outcome.workflowState).not.toBe(start);
    expect(outcome.workflowState.guards).toEqual({ g_test: true, g_impl: true });
    expect(outcome.workflowState.artifactIds).toEqual({ g_test: "t-1", g_impl: outcome.artifact.id });
    expect(start.guards).toEqual({ g_test: true });
  });
});

describe("runDualStateAgent: fatal verdicts", () => {
  it("a fatal verdict on attempt 2 escalates at once: no third generator call, attempt 1 stays in the DAG", async () => {
    const guard = new ScriptedGuard([failed("retry me"), fatal("Security: os.system forbidden"), passed()]);
    const { input, generator, dag } = agentInput({ script: ["v1", "import os; os.system('x')", "v3"], guard, rmax: 5 });
    const outcome = await runDualStateAgent(input);

    expect(outcome.kind).toBe("escalation");
    if (outcome.kind !== "escalation") return;
    expect(outcome.attempts).toBe(2);
    expect(outcome.feedback).toBe("Security: os.system forbidden");
    expect(outcome.artifact.content).toBe("import os; os.system('x')");
    expect(generator.calls).toBe(2);
    expect(guard.calls).toHaveLength(2);

    const stored = dag.all();
    expect(stored.map((entry) => [entry.artifact.content, entry.result])).toEqual([
      ["v1", { passed: false, feedback: "retry me", fatal: false }],
      ["import os; os.system('x')", { passed: false, feedback: "Security: os.system forbidden", fatal: true }],
    ]);
    expect(stored[1]!.artifact.parentId).toBe(stored[0]!.artifact.id);
  });

  it("a fatal verdict on the last budgeted attempt is still an escalation, not exhaustion", async () => {
    const { input } = agentInput({ script: ["v1"], guard: guardFrom(() => fatal("stop")), rmax: 0 });
    expect((await runDualStateAgent(input)).kind).toBe("escalation");
  });
});

describe("runDualStateAgent: the attempt chain", () => {
  it("chains attempts through parentId with versions 1, 2, 3 and fresh ids", async () => {
    const { input, dag } = agentInput({ script: ["v1", "v2", "v3"], guard: new ScriptedGuard([failed("1"), failed("2"), passed()]), rmax: 3 });
    const outcome = await runDualStateAgent(input);
    if (outcome.kind !== "passed") throw new Error(`expected passed, got ${outcome.kind}`);

    const artifacts: Artifact[] = dag.all().map((entry) => entry.artifact);
    expect(artifacts.map((artifact) => [artifact.id, artifact.version, artifact.parentId])).toEqual([
      ["a-1", 1, null],
      ["a-2", 2, "a-1"],
      ["a-3", 3, "a-2"],
    ]);
    expect(outcome.artifact).toBe(artifacts[2]);
    expect((await dag.provenance("a-3")).map((entry) => entry.artifact.content)).toEqual(["v1", "v2", "v3"]);
  });

  it("stores each attempt with its step, guard id, verdict, dependency ids and language", async () => {
    const test: Artifact = { id: "t-1", content: "def test(): ...", version: 1, parentId: null, contentHash: "h" };
    const { input, dag } = agentInput({ script: ["v1"], guard: guardFrom(() => passed("ok")), rmax: 0, dependencies: { test } });
    await runDualStateAgent(input);
    const [entry] = dag.all();
    expect(entry).toMatchObject({ stepName: "implement", guardId: "g_impl", dependencyIds: { test: "t-1" }, language: "python", result: passed("ok") });
  });

  it("refines the context with every failure: the history grows and the last artifact becomes current", async () => {
    const guard = new ScriptedGuard([failed("f1"), failed("f2"), passed()]);
    const { input, generator } = agentInput({ script: ["v1", "v2", "v3"], guard, rmax: 3 });
    await runDualStateAgent(input);

    const contexts = generator.requests.map((request) => request.context);
    expect(contexts.map((context) => context.currentArtifact)).toEqual([null, "v1", "v2"]);
    expect(contexts.map((context) => context.feedbackHistory.map((entry) => entry.feedback))).toEqual([[], ["f1"], ["f1", "f2"]]);
    expect(contexts.every((context) => context.specification === "Implement LRU Cache")).toBe(true);
    expect(generator.requests.map((request) => request.attempt)).toEqual([1, 2, 3]);
  });

  it("reports generator.completed then guard.completed for each attempt, with the stored artifact's id and hash", async () => {
    const { input, observer, dag } = agentInput({ script: ["v1", "v2"], guard: new ScriptedGuard([failed("f1"), passed()]), rmax: 1 });
    await runDualStateAgent(input);
    expect(observer.types()).toEqual(["generator.completed", "guard.completed", "generator.completed", "guard.completed"]);
    const [first] = dag.all();
    expect(observer.events[0]).toMatchObject({ step: "implement", attempt: 1, artifactId: first!.artifact.id, contentHash: first!.artifact.contentHash });
    expect(observer.events[1]).toEqual({ type: "guard.completed", step: "implement", attempt: 1, artifactId: first!.artifact.id, result: failed("f1") });
  });

  it("returns the provenance of every failed attempt with its feedback", async () => {
    const verdicts: GuardResult[] = [failed("f1"), failed("f2")];
    const { input } = agentInput({ script: ["v1", "v2"], guard: new ScriptedGuard(verdicts), rmax: 1 });
    const outcome = await runDualStateAgent(input);
    if (outcome.kind !== "exhausted") throw new Error(`expected exhausted, got ${outcome.kind}`);
    expect(outcome.provenance.map((entry) => [entry.artifact?.id, entry.artifact?.content, entry.feedback])).toEqual([
      ["a-1", "v1", "f1"],
      ["a-2", "v2", "f2"],
    ]);
  });
});
