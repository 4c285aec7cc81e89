import { describe, expect, it } from "vitest";
import { always } from "../domain/action-pair";
import { passed } from "../domain/guard-result";
import { createPromptTemplate } from "../domain/prompt-template";
import { ACTION_HISTORY_LINE_LIMIT, PROMPT_OUTPUT_LIMIT } from "../domain/prompt-values";
import { parseCondition } from "../conditions";
import type { Generation, GenerationRequest, Generator } from "../ports/generator";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { MemoryJournal } from "../testing/memory-journal";
import { RecordingObserver } from "../testing/recording-observer";
import { ScriptedGenerator } from "../testing/scripted-generator";
import { guardFrom } from "../testing/scripted-guard";
import type { ActionPairMachineStep, MachineStep, MachineTransition, WorkflowMachine } from "./machine";
import { runMachine, type MachineRun } from "./run-machine";

const template = createPromptTemplate({ role: "", constraints: "", task: "Go." });

function cond(source: string) {
  const parsed = parseCondition(source);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.expression;
}
const t = (from: string, to: string, condition = "true"): MachineTransition => ({ from, to, condition: cond(condition) });

/** Answers in order through the run's call ledger (a resumed run replays them) and keeps every request. */
function ledgerGenerator(script: readonly string[]): Generator & { readonly requests: GenerationRequest[] } {
  const requests: GenerationRequest[] = [];
  return {
    requests,
    async generate(request): Promise<Generation> {
      const reply = script[requests.length];
      requests.push(request);
      if (reply === undefined) throw new Error("ledgerGenerator: script exhausted");
      const outcome = await request.calls.call(`${request.callKey}/model`, { actor: "assistant", policy: "model", payload: {} }, async () => ({ content: reply }));
      if (!outcome.ok) throw new Error(outcome.error.message);
      return { content: String(outcome.result.content) };
    },
  };
}

function pair(name: string, inState: string, generator: Generator, extra: Partial<ActionPairMachineStep> = {}): ActionPairMachineStep {
  return { kind: "action_pair", name, inState, guardId: `g_${name}`, actionPair: { precondition: always, generator, guard: guardFrom(() => passed()), template }, guardArtifactDeps: [], rmax: 0, onFailure: "fail", ...extra };
}

function machine(states: string[], steps: MachineStep[], transitions: MachineTransition[] = [], context: WorkflowMachine["context"] = {}): WorkflowMachine {
  return { states, initialState: states[0]!, finalStates: [states.at(-1)!], transitions, steps, context };
}

async function run(m: WorkflowMachine, extra: Partial<MachineRun> = {}) {
  const dag = new InMemoryArtifactDag();
  const observer = new RecordingObserver();
  const result = await runMachine(m, { specification: "Build a thing", dag, observer, calls: new MemoryCallLedger(), newId: (key) => `id:${key}`, identity: { runId: "run-7", workflow: "outputs-demo" }, ...extra });
  return { result, dag, observer };
}

describe("steps.NAME.output in conditions and run_if", () => {
  it("a transition condition reads an llm step's answer as text", async () => {
    const m = machine(
      ["asking", "yes_state", "no_state", "done"],
      [{ kind: "llm", name: "check", inState: "asking", generator: new ScriptedGenerator(["yes"]), template }],
      [t("asking", "no_state", 'steps.check.output == "no"'), t("asking", "yes_state", 'steps.check.output == "yes"'), t("yes_state", "done"), t("no_state", "done")],
    );
    const { result } = await run(m);
    expect(result.path).toEqual(["asking", "yes_state", "done"]);
  });

  it("run_if chooses the step by an earlier output; a step that has not run reads as empty text", async () => {
    const later = new ScriptedGenerator(["never"]);
    const m = machine(
      ["asking", "acting", "done"],
      [
        { kind: "transition", name: "decide", inState: "asking", generator: new ScriptedGenerator(["PIVOT"]), template, transitionMap: { continue: "acting", pivot: "acting" } },
        // Not chosen: decide's output is the map key as spelt, "pivot".
        { kind: "llm", name: "go_on", inState: "acting", runIf: cond('steps.decide.output == "continue"'), generator: later, template, transitionTo: "done" },
        { kind: "code", name: "turn_round", inState: "acting", runIf: cond('steps.decide.output == "pivot" and steps.go_on.output == ""'), run: async () => ({ updates: { pivoted: true } }), transitionTo: "done" },
      ],
      [],
      { pivoted: false },
    );
    const { result } = await run(m);
    expect(result.status).toBe("success");
    expect(result.context.pivoted).toBe(true);
    expect(later.calls).toBe(0);
    expect(result.outputs).toEqual({ decide: "pivot", turn_round: '{"pivoted":true}' });
  });

  it("a revisited step's output is its latest", async () => {
    const m = machine(
      ["looping", "done"],
      [{ kind: "llm", name: "count", inState: "looping", generator: new ScriptedGenerator(["one", "two", "three"]), template }],
      [t("looping", "done", 'steps.count.output == "three"'), t("looping", "looping")],
    );
    const { result } = await run(m);
    expect(result.turns).toBe(3);
    expect(result.outputs.count).toBe("three");
  });
});

describe("prompt values: built-in variables and step outputs at generation time", () => {
  function fourSteps(probe: Generator) {
    return machine(
      ["preparing", "writing", "observing", "probing", "done"],
      [
        { kind: "code", name: "prepare", inState: "preparing", run: async () => ({ updates: { note: "changed" } }), transitionTo: "writing" },
        pair("write", "writing", new ScriptedGenerator(["const a = 1;"]), { transitionTo: "observing" }),
        { kind: "llm", name: "observe", inState: "observing", generator: new ScriptedGenerator(["seen it"]), template, transitionTo: "probing" },
        { kind: "llm", name: "probe", inState: "probing", generator: probe, template, transitionTo: "done", maxRetries: 1 },
      ],
      [],
      { note: "original" },
    );
  }

  it("carries every built-in and each step's output as text, with {attempt} per attempt and variables as a code step left them", async () => {
    const probe = ledgerGenerator(["", "fine"]);
    const { result } = await run(fourSteps(probe));
    expect(result.status).toBe("success");
    const [first, second] = probe.requests;
    expect(first?.promptValues).toEqual({
      agent_id: "outputs-demo",
      workflow: "outputs-demo",
      run_id: "run-7",
      task: "Build a thing",
      attempt: "1",
      last_output: "seen it",
      last_action_result: "seen it",
      tick: "4",
      state: "probing",
      artifacts: "g_write (step write)",
      action_history: 'prepare: {"note":"changed"}\nwrite: const a = 1;\nobserve: seen it',
      "steps.prepare.output": '{"note":"changed"}',
      "steps.write.output": "const a = 1;",
      "steps.observe.output": "seen it",
      "steps.probe.output": "",
    });
    expect(second?.promptValues?.attempt).toBe("2");
    expect(first?.variables).toEqual({ note: "changed" });
  });

  it("an action pair's generation gets them too, its attempt number included", async () => {
    const writer = ledgerGenerator(["", "const b = 2;"]);
    const m = machine(
      ["observing", "writing", "done"],
      [
        { kind: "llm", name: "observe", inState: "observing", generator: new ScriptedGenerator(["the plan"]), template, transitionTo: "writing" },
        pair("write", "writing", writer, { rmax: 1, transitionTo: "done" }),
      ],
    );
    const { result } = await run(m);
    expect(result.status).toBe("success");
    expect(writer.requests.map((request) => [request.promptValues?.attempt, request.promptValues?.["steps.observe.output"], request.promptValues?.state])).toEqual([
      ["1", "the plan", "writing"],
      ["2", "the plan", "writing"],
    ]);
  });

  it("bounds what a prompt receives: each history line and each output", async () => {
    const long = "x".repeat(PROMPT_OUTPUT_LIMIT + 10);
    const probe = ledgerGenerator(["ok"]);
    const steps: MachineStep[] = ["a", "b", "c", "d", "e", "f"].map((name, index, names) => ({
      kind: "llm",
      name,
      inState: name,
      generator: new ScriptedGenerator([name === "f" ? long : `${name}-out`]),
      template,
      transitionTo: names[index + 1] ?? "probing",
    }));
    const m = machine(["a", "b", "c", "d", "e", "f", "probing", "done"], [...steps, { kind: "llm", name: "probe", inState: "probing", generator: probe, template, transitionTo: "done" }]);
    await run(m);
    const values = probe.requests[0]?.promptValues ?? {};
    const history = values.action_history?.split("\n") ?? [];
    // The last five outputs, oldest first; "a" has dropped out.
    expect(history.map((line) => line.split(":")[0])).toEqual(["b", "c", "d", "e", "f"]);
    expect(history.at(-1)?.length).toBeLessThan(ACTION_HISTORY_LINE_LIMIT + 60);
    expect(history.at(-1)).toContain(`(cut at ${ACTION_HISTORY_LINE_LIMIT} of ${long.length} characters)`);
    expect(values["steps.f.output"]?.length).toBeLessThan(PROMPT_OUTPUT_LIMIT + 60);
    expect(values.last_output).toBe(values["steps.f.output"]);
  });

  it("without an identity the run's names are empty, never undefined", async () => {
    const probe = ledgerGenerator(["ok"]);
    const m = machine(["probing", "done"], [{ kind: "llm", name: "probe", inState: "probing", generator: probe, template, transitionTo: "done" }]);
    await runMachine(m, { specification: "s", dag: new InMemoryArtifactDag() });
    expect(probe.requests[0]?.promptValues).toMatchObject({ run_id: "", workflow: "", agent_id: "", last_output: "", action_history: "", artifacts: "", tick: "1" });
  });
});

describe("outputs in the DAG and the ledger", () => {
  it("each llm, code and transition output is an artifact of its step kind, named by its step.completed event", async () => {
    const m = machine(
      ["thinking", "computing", "choosing", "done"],
      [
        { kind: "llm", name: "think", inState: "thinking", generator: new ScriptedGenerator(["an idea"]), template, transitionTo: "computing" },
        { kind: "code", name: "compute", inState: "computing", run: async () => ({ updates: { score: 3 } }), transitionTo: "choosing" },
        { kind: "transition", name: "choose", inState: "choosing", generator: new ScriptedGenerator(["Ship"]), template, transitionMap: { ship: "done", again: "thinking" } },
      ],
      [],
      { score: 0 },
    );
    const { result, dag, observer } = await run(m);
    expect(result.status).toBe("success");
    expect(dag.all().map((entry) => [entry.stepName, entry.stepKind, entry.artifact.content, entry.result.passed, entry.guardId, entry.artifact.version, entry.artifact.parentId])).toEqual([
      ["think", "llm", "an idea", true, "", 1, null],
      ["compute", "code", '{"score":3}', true, "", 1, null],
      ["choose", "transition", "ship", true, "", 1, null],
    ]);
    const completed = observer.events.filter((event) => event.type === "step.completed");
    expect(completed).toEqual([
      { type: "step.completed", step: "think", kind: "llm", output: "an idea", artifactId: "id:think/attempt-1", state: "thinking", prompt: expect.any(String) },
      { type: "step.completed", step: "compute", kind: "code", output: '{"score":3}', updates: { score: 3 }, artifactId: "id:compute/attempt-1", state: "computing" },
      { type: "step.completed", step: "choose", kind: "transition", output: "ship", artifactId: "id:choose/attempt-1", state: "choosing", to: "done", prompt: expect.any(String) },
    ]);
    expect(observer.events.filter((event) => event.type === "step.started").map((event) => event.state)).toEqual(["thinking", "computing", "choosing"]);
  });

  it("failed attempts are artifacts with their reason, chained to the attempt that succeeded", async () => {
    const m = machine(["choosing", "done"], [{ kind: "transition", name: "choose", inState: "choosing", generator: new ScriptedGenerator(["maybe", "done"]), template, transitionMap: { done: "done" }, maxRetries: 1 }]);
    const { dag, observer } = await run(m);
    const [failedAttempt, accepted] = dag.all();
    expect(failedAttempt?.artifact.content).toBe("maybe");
    expect(failedAttempt?.result).toEqual({ passed: false, fatal: false, feedback: expect.stringContaining('which is not one of "done"') });
    expect(accepted?.artifact.parentId).toBe(failedAttempt?.artifact.id);
    expect(observer.events.find((event) => event.type === "step.attempt_failed")).toMatchObject({ artifactId: failedAttempt?.artifact.id, attempt: 1 });
  });

  it("a code step that raised is a failed artifact with no content and the error as its reason", async () => {
    let runs = 0;
    const m = machine(["computing", "done"], [{ kind: "code", name: "compute", inState: "computing", maxRetries: 1, transitionTo: "done", run: async () => (runs++ === 0 ? { error: "ZeroDivisionError" } : { updates: {} }) }]);
    const { dag } = await run(m);
    expect(dag.all().map((entry) => [entry.artifact.content, entry.result.passed, entry.result.feedback])).toEqual([
      ["", false, 'Code step "compute" failed: ZeroDivisionError'],
      ["{}", true, ""],
    ]);
  });
});

describe("replay: a resumed run reads outputs back and never asks the model again", () => {
  it("an llm output feeds a later prompt across a crash", async () => {
    const dag = new InMemoryArtifactDag();
    const journal = new MemoryJournal();
    const calls = new MemoryCallLedger();
    const turn = (observe: Generator, probe: Generator) =>
      runMachine(
        machine(
          ["observing", "probing", "done"],
          [
            { kind: "llm", name: "observe", inState: "observing", generator: observe, template, transitionTo: "probing" },
            { kind: "llm", name: "probe", inState: "probing", generator: probe, template, transitionTo: "done" },
          ],
        ),
        { specification: "s", dag, observer: journal, calls, newId: (key) => `id:${key}`, identity: { runId: "r", workflow: "w" } },
      );
    const crashing: Generator = { generate: () => Promise.reject(new Error("worker died")) };
    await expect(turn(ledgerGenerator(["what I saw"]), crashing)).rejects.toThrow("worker died");

    const observeAgain = ledgerGenerator([]);
    const probe = ledgerGenerator(["done"]);
    const resumed = await turn(observeAgain, probe);
    expect(resumed.status).toBe("success");
    expect(observeAgain.requests).toHaveLength(0);
    expect(probe.requests[0]?.promptValues?.["steps.observe.output"]).toBe("what I saw");
    expect(probe.requests[0]?.promptValues?.last_output).toBe("what I saw");
    expect(dag.all().map((entry) => entry.artifact.id)).toEqual(["id:observe/attempt-1", "id:probe/attempt-1"]);
  });

  it("a code step's output and a transition's choice are read back too", async () => {
    const dag = new InMemoryArtifactDag();
    const journal = new MemoryJournal();
    const calls = new MemoryCallLedger();
    let codeRuns = 0;
    const turn = (choose: Generator, probe: Generator) =>
      runMachine(
        machine(
          ["computing", "choosing", "probing", "done"],
          [
            { kind: "code", name: "compute", inState: "computing", transitionTo: "choosing", run: async () => ((codeRuns += 1), { updates: { n: 2 } }) },
            { kind: "transition", name: "choose", inState: "choosing", generator: choose, template, transitionMap: { Probe: "probing" } },
            { kind: "llm", name: "probe", inState: "probing", generator: probe, template, transitionTo: "done" },
          ],
          [],
          { n: 0 },
        ),
        { specification: "s", dag, observer: journal, calls, newId: (key) => `id:${key}` },
      );
    await expect(turn(ledgerGenerator(["probe"]), { generate: () => Promise.reject(new Error("worker died")) })).rejects.toThrow("worker died");
    const probe = ledgerGenerator(["ok"]);
    const resumed = await turn(ledgerGenerator([]), probe);
    expect(resumed.status).toBe("success");
    expect(codeRuns).toBe(1);
    expect(resumed.context.n).toBe(2);
    expect(probe.requests[0]?.promptValues).toMatchObject({ "steps.compute.output": '{"n":2}', "steps.choose.output": "Probe", action_history: 'compute: {"n":2}\nchoose: Probe' });
  });
});
