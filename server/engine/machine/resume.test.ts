import { describe, expect, it } from "vitest";
import { always } from "../domain/action-pair";
import { failed, fatal, passed, type GuardResult } from "../domain/guard-result";
import { createPromptTemplate } from "../domain/prompt-template";
import { parseCondition } from "../conditions";
import type { Artifact } from "../domain/artifact";
import type { Generator } from "../ports/generator";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { MemoryJournal } from "../testing/memory-journal";
import { ScriptedGenerator } from "../testing/scripted-generator";
import { guardFrom } from "../testing/scripted-guard";
import type { ActionPairMachineStep, CodeMachineStep, WorkflowMachine } from "./machine";
import { runMachine } from "./run-machine";

const template = createPromptTemplate({ role: "", constraints: "", task: "Implement it." });
function condition(source: string) {
  const parsed = parseCondition(source);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.expression;
}

function pair(name: string, inState: string, generator: Generator, decide: (artifact: Artifact) => GuardResult, rmax = 2): ActionPairMachineStep {
  return { kind: "action_pair", name, inState, guardId: `g_${name}`, actionPair: { precondition: always, generator, guard: guardFrom(decide), template }, guardArtifactDeps: [], rmax, onFailure: "fail" };
}

function twoSteps(first: ActionPairMachineStep, second: ActionPairMachineStep | CodeMachineStep): WorkflowMachine {
  return {
    states: ["one", "two", "done"],
    initialState: "one",
    finalStates: ["done"],
    transitions: [
      { from: "one", to: "two", condition: condition("true") },
      { from: "two", to: "done", condition: condition("true") },
    ],
    steps: [first, second],
    context: { flag: false },
  };
}

/** One run's stores, shared by its turns: the second runMachine call is the resumed turn. */
function durableRun() {
  const dag = new InMemoryArtifactDag();
  const journal = new MemoryJournal();
  const calls = new MemoryCallLedger();
  // Ids by key, as the durable store derives them: a regenerated attempt keeps its id.
  const turn = (machine: WorkflowMachine) => runMachine(machine, { specification: "spec", dag, observer: journal, calls, newId: (key) => `id:${key}` });
  return { dag, journal, turn };
}

describe("runMachine resumed from its journal", () => {
  it("after a crash in step two, the resumed turn reads step one back: no generation, no guard, no duplicate event", async () => {
    const run = durableRun();
    const tests = new ScriptedGenerator(["tests"]);
    const crashing: Generator = { generate: async () => Promise.reject(new Error("worker died")) };
    await expect(run.turn(twoSteps(pair("tests", "one", tests, () => passed()), pair("impl", "two", crashing, () => passed())))).rejects.toThrow("worker died");

    const testsAgain = new ScriptedGenerator(["never asked"]);
    const testsGuard = guardFrom(() => passed());
    const impl = new ScriptedGenerator(["impl"]);
    const first = pair("tests", "one", testsAgain, () => passed());
    const resumed = await run.turn(twoSteps({ ...first, actionPair: { ...first.actionPair, guard: testsGuard } }, pair("impl", "two", impl, () => passed())));

    expect(resumed.status).toBe("success");
    expect(testsAgain.calls).toBe(0);
    expect(testsGuard.calls).toBe(0);
    expect(impl.calls).toBe(1);
    expect(run.journal.types().filter((type) => type === "run.started")).toHaveLength(1);
    expect(run.journal.types().filter((type) => type === "state.advanced")).toHaveLength(2);
    expect(resumed.artifacts.g_tests?.content).toBe("tests");
  });

  it("a fatal verdict suspends with a decision key; an approval resumes past it without generating again", async () => {
    const run = durableRun();
    const gen = new ScriptedGenerator(["os.system('x')"]);
    const machine = () => twoSteps(pair("exec", "one", gen, () => fatal("os.system forbidden")), pair("next", "two", new ScriptedGenerator(["ok"]), () => passed()));
    const suspended = await run.turn(machine());
    expect(suspended.status).toBe("escalation");
    expect(run.journal.types().slice(-2)).toEqual(["step.escalated", "run.suspended"]);
    const escalated = run.journal.events.find((event) => event.type === "step.escalated");
    expect(escalated).toMatchObject({ decisionKey: "exec/attempt-1/decision" });

    run.journal.decide("exec/attempt-1/decision", { decision: "approve", decidedBy: "ada" });
    const resumed = await run.turn(machine());
    expect(resumed.status).toBe("success");
    expect(gen.calls).toBe(1);
    expect(resumed.artifacts.g_exec?.content).toBe("os.system('x')");
    expect(run.journal.types().filter((type) => type === "run.finished")).toHaveLength(1);
  });

  it.each([
    [{ decision: "reject", decidedBy: "bob", comment: "Never shell out" }, "Rejected by bob: Never shell out"],
    [{ decision: "expired", decidedBy: "watchdog" }, "escalation expired"],
  ])("decision %j ends the run failed with %s", async (decision, reason) => {
    const run = durableRun();
    const machine = () => twoSteps(pair("exec", "one", new ScriptedGenerator(["bad"]), () => fatal("forbidden")), pair("next", "two", new ScriptedGenerator(["ok"]), () => passed()));
    await run.turn(machine());
    run.journal.decide("exec/attempt-1/decision", decision);
    const resumed = await run.turn(machine());
    expect(resumed).toMatchObject({ status: "failed", failedStep: "exec", reason });
  });

  it("reject with feedback: the comment is the attempt's feedback in the next prompt, and the attempt counts against the budget", async () => {
    const run = durableRun();
    const gen = new ScriptedGenerator(["bad", "good"]);
    const decide = (artifact: Artifact) => (artifact.content === "good" ? passed() : fatal("forbidden"));
    const machine = (rmax: number) => twoSteps(pair("exec", "one", gen, decide, rmax), pair("next", "two", new ScriptedGenerator(["ok"]), () => passed()));
    await run.turn(machine(1));
    run.journal.decide("exec/attempt-1/decision", { decision: "reject_with_feedback", decidedBy: "ada", comment: "Use subprocess.run with a list" });
    const resumed = await run.turn(machine(1));
    expect(resumed.status).toBe("success");
    expect(gen.prompts[1]).toContain("Use subprocess.run with a list");

    // With no budget left (rmax 0), the same decision exhausts the step instead.
    const spent = durableRun();
    const once = new ScriptedGenerator(["bad"]);
    const machineNoBudget = () => twoSteps(pair("exec", "one", once, () => fatal("forbidden"), 0), pair("next", "two", new ScriptedGenerator(["ok"]), () => passed()));
    await spent.turn(machineNoBudget());
    spent.journal.decide("exec/attempt-1/decision", { decision: "reject_with_feedback", decidedBy: "ada", comment: "try again" });
    expect((await spent.turn(machineNoBudget())).status).toBe("failed");
  });

  it("edit and approve: the edit is a child artifact checked by the step's guard; passing moves the run on", async () => {
    const run = durableRun();
    const gen = new ScriptedGenerator(["os.system('ls')"]);
    const guard = guardFrom((artifact) => (artifact.content.includes("os.system") ? fatal("os.system forbidden") : passed()));
    const machine = () => {
      const first = pair("exec", "one", gen, () => passed());
      return twoSteps({ ...first, actionPair: { ...first.actionPair, guard } }, pair("next", "two", new ScriptedGenerator(["ok"]), () => passed()));
    };
    await run.turn(machine());
    run.journal.decide("exec/attempt-1/decision", { decision: "edit_and_approve", decidedBy: "ada", editedContent: "subprocess.run(['ls'])" });
    const resumed = await run.turn(machine());
    expect(resumed.status).toBe("success");
    expect(gen.calls).toBe(1);
    const edited = resumed.artifacts.g_exec;
    expect(edited?.content).toBe("subprocess.run(['ls'])");
    expect(edited?.parentId).toBe("id:exec/attempt-1");
    expect((await run.dag.get(edited!.id)).result.passed).toBe(true);
    expect(guard.calls).toBe(2);
  });

  it("edit and approve: an edit that fails the guard fatally escalates again, on the edit", async () => {
    const run = durableRun();
    const machine = () => twoSteps(pair("exec", "one", new ScriptedGenerator(["eval(x)"]), (artifact) => (artifact.content.includes("eval") ? fatal("eval forbidden") : passed())), pair("next", "two", new ScriptedGenerator(["ok"]), () => passed()));
    await run.turn(machine());
    run.journal.decide("exec/attempt-1/decision", { decision: "edit_and_approve", decidedBy: "ada", editedContent: "eval(y)" });
    const again = await run.turn(machine());
    expect(again.status).toBe("escalation");
    const escalations = run.journal.events.filter((event) => event.type === "step.escalated");
    expect(escalations.at(-1)).toMatchObject({ decisionKey: "exec/attempt-1/edit/decision", artifactId: "id:exec/attempt-1/edit" });
    run.journal.decide("exec/attempt-1/edit/decision", { decision: "reject", decidedBy: "ada", comment: "no" });
    expect(await run.turn(machine())).toMatchObject({ status: "failed", reason: "Rejected by ada: no" });
  });

  it("a code step's recorded updates are applied on resume without running the sandbox again", async () => {
    const run = durableRun();
    let sandboxRuns = 0;
    const code: CodeMachineStep = { kind: "code", name: "set", inState: "two", run: async () => ({ updates: { flag: ++sandboxRuns > 0 } }) };
    const crashAfterCode: Generator = { generate: async () => Promise.reject(new Error("crash")) };
    const machine = (third: Generator) => {
      const base = twoSteps(pair("tests", "one", new ScriptedGenerator(["t"]), () => passed()), code);
      return {
        ...base,
        states: ["one", "two", "three", "done"],
        transitions: [base.transitions[0]!, { from: "two", to: "three", condition: condition("flag") }, { from: "three", to: "done", condition: base.transitions[1]!.condition }],
        steps: [...base.steps, pair("last", "three", third, () => passed())],
      };
    };
    await expect(run.turn(machine(crashAfterCode))).rejects.toThrow("crash");
    expect(sandboxRuns).toBe(1);
    const resumed = await run.turn(machine(new ScriptedGenerator(["done"])));
    expect(resumed.status).toBe("success");
    expect(resumed.context.flag).toBe(true);
    expect(sandboxRuns).toBe(1);
  });

  it("a failed attempt replays as failed: its feedback still refines the next attempt's prompt", async () => {
    const run = durableRun();
    const gen = new ScriptedGenerator(["v1"]);
    const crashOnSecond: Generator = {
      generate: async (request) => (request.attempt === 1 ? gen.generate(request) : Promise.reject(new Error("crash"))),
    };
    const decide = (artifact: Artifact) => (artifact.content === "v2" ? passed() : failed("missing get"));
    const single = (generator: Generator): WorkflowMachine => ({ ...twoSteps(pair("impl", "one", generator, decide), pair("x", "two", new ScriptedGenerator(["x"]), () => passed())) });
    await expect(run.turn(single(crashOnSecond))).rejects.toThrow("crash");
    const again = new ScriptedGenerator(["v2"]);
    const onlySecond: Generator = { generate: async (request) => (request.attempt === 2 ? again.generate(request) : Promise.reject(new Error("attempt 1 regenerated"))) };
    const resumed = await run.turn(single(onlySecond));
    expect(resumed.status).toBe("success");
    expect(again.prompts[0]).toContain("missing get");
  });
});
