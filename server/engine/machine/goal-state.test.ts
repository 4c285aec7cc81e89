import { describe, expect, it } from "vitest";
import { always } from "../domain/action-pair";
import { failed, fatal, passed, type GuardResult } from "../domain/guard-result";
import { createPromptTemplate } from "../domain/prompt-template";
import { parseCondition } from "../conditions";
import { InvalidWorkflowError } from "../errors";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { MemoryJournal } from "../testing/memory-journal";
import { ScriptedGenerator } from "../testing/scripted-generator";
import { guardFrom } from "../testing/scripted-guard";
import type { ActionPairMachineStep, MachineResult, MachineTransition, WorkflowMachine } from "./machine";
import { runMachine } from "./run-machine";

// 000's goal test: a run succeeds only when every guard of the goal set is satisfied.

const template = createPromptTemplate({ role: "", constraints: "", task: "Do it." });

function transition(from: string, to: string, source = "true"): MachineTransition {
  const parsed = parseCondition(source);
  if (!parsed.ok) throw new Error(parsed.message);
  return { from, to, condition: parsed.expression };
}

/** An action pair whose guard gives `verdict` to every attempt; one retry at most. */
function pair(name: string, inState: string, verdict: GuardResult, onFailure: ActionPairMachineStep["onFailure"] = "fail"): ActionPairMachineStep {
  return {
    kind: "action_pair",
    name,
    inState,
    guardId: `g_${name}`,
    actionPair: { precondition: always, generator: new ScriptedGenerator([`${name} v1`, `${name} v2`]), guard: guardFrom(() => verdict), template },
    guardArtifactDeps: [],
    rmax: 1,
    onFailure,
  };
}

/** tests → impl → done, where impl may be skipped; `goal` as given. */
function testsThenImpl(implVerdict: GuardResult, goal?: readonly string[]): WorkflowMachine {
  return {
    states: ["testing", "implementing", "done"],
    initialState: "testing",
    finalStates: ["done"],
    transitions: [transition("testing", "implementing", "g_tests"), transition("implementing", "done")],
    steps: [pair("tests", "testing", passed()), pair("impl", "implementing", implVerdict, "skip")],
    context: {},
    ...(goal ? { goal } : {}),
  };
}

function run(machine: WorkflowMachine, journal = new MemoryJournal()): Promise<MachineResult> {
  return runMachine(machine, { specification: "LRU cache", dag: new InMemoryArtifactDag(), observer: journal, calls: new MemoryCallLedger(), newId: (key) => `id:${key}` });
}

describe("goal state when a run reaches a final state", () => {
  it("every action pair that ran is satisfied: success, with each guard's artifact", async () => {
    const result = await run(testsThenImpl(passed()));
    expect(result.status).toBe("success");
    expect(Object.keys(result.artifacts)).toEqual(["g_tests", "g_impl"]);
  });

  it("a skipped action pair leaves its guard unsatisfied: failed in the final state, naming the guard and its step", async () => {
    const journal = new MemoryJournal();
    const result = await run(testsThenImpl(failed("test_get failed")), journal);
    if (result.status !== "failed") throw new Error(result.status);
    expect(result.reason).toBe('Goal not reached in final state "done": guard g_impl (step "impl") is not satisfied');
    expect(result.failedStep).toBe("done");
    expect(result.finalState).toBe("done");
    expect(Object.keys(result.artifacts)).toEqual(["g_tests"]);
    // The run ended (no suspension) and the ledger says why.
    const finished = journal.events.at(-1);
    expect(finished).toMatchObject({ type: "run.finished", result: { status: "failed", reason: result.reason } });
  });

  it("names every missing guard, in the order their steps ran", async () => {
    const machine: WorkflowMachine = {
      states: ["a", "b", "done"],
      initialState: "a",
      finalStates: ["done"],
      transitions: [transition("a", "b"), transition("b", "done")],
      steps: [pair("first", "a", failed("no"), "skip"), pair("second", "b", failed("no"), "skip")],
      context: {},
    };
    const result = await run(machine);
    expect(result).toMatchObject({ status: "failed", reason: 'Goal not reached in final state "done": guards g_first (step "first"), g_second (step "second") are not satisfied' });
  });

  it("an action pair on a branch not taken is not part of the default goal", async () => {
    const machine: WorkflowMachine = {
      states: ["choose", "careful", "done"],
      initialState: "choose",
      finalStates: ["done"],
      transitions: [transition("choose", "careful", "deep"), transition("choose", "done"), transition("careful", "done")],
      steps: [pair("quick", "choose", passed()), pair("review", "careful", passed())],
      context: { deep: false },
    };
    const result = await run(machine);
    expect(result.status).toBe("success");
    expect(result.path).toEqual(["choose", "done"]);
  });

  describe("a declared goal", () => {
    it("is the whole goal: a skipped pair outside it does not stop success", async () => {
      expect((await run(testsThenImpl(failed("no"), ["g_tests"]))).status).toBe("success");
      expect((await run(testsThenImpl(failed("no"), []))).status).toBe("success");
    });

    it("still fails when a declared guard is unsatisfied", async () => {
      const result = await run(testsThenImpl(failed("no"), ["g_tests", "g_impl"]));
      expect(result).toMatchObject({ status: "failed", reason: 'Goal not reached in final state "done": guard g_impl (step "impl") is not satisfied' });
    });

    it("requires its guards even when their step never ran", async () => {
      const machine: WorkflowMachine = {
        states: ["choose", "careful", "done"],
        initialState: "choose",
        finalStates: ["done"],
        transitions: [transition("choose", "careful", "deep"), transition("choose", "done"), transition("careful", "done")],
        steps: [pair("quick", "choose", passed()), pair("review", "careful", passed())],
        context: { deep: false },
        goal: ["g_quick", "g_review"],
      };
      expect(await run(machine)).toMatchObject({ status: "failed", reason: 'Goal not reached in final state "done": guard g_review (step "review") is not satisfied' });
    });

    it("naming a guard no action pair has is refused before anything runs", async () => {
      const journal = new MemoryJournal();
      await expect(run(testsThenImpl(passed(), ["g_tests", "g_typo"]), journal)).rejects.toThrow(InvalidWorkflowError);
      await expect(run(testsThenImpl(passed(), ["g_typo"]))).rejects.toThrow('goal names "g_typo", which is not the guard id of any action_pair step');
      expect(journal.events).toEqual([]);
    });
  });

  it("an escalation approved on resume satisfies the guard: the resumed run reaches the goal", async () => {
    const journal = new MemoryJournal();
    const dag = new InMemoryArtifactDag();
    const calls = new MemoryCallLedger();
    const machine = () => ({ ...testsThenImpl(passed()), steps: [pair("tests", "testing", passed()), pair("impl", "implementing", fatal("os.system forbidden"))] });
    const turn = () => runMachine(machine(), { specification: "LRU cache", dag, observer: journal, calls, newId: (key) => `id:${key}` });
    expect((await turn()).status).toBe("escalation");
    journal.decide("impl/attempt-1/decision", { decision: "approve", decidedBy: "ada" });
    const resumed = await turn();
    expect(resumed.status).toBe("success");
    expect(Object.keys(resumed.artifacts)).toEqual(["g_tests", "g_impl"]);
  });
});
