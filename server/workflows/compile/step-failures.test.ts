import { describe, expect, it } from "vitest";
import { MemoryCallLedger, runMachine, type WorkflowMachine } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { MemoryJournal } from "../../engine/testing/memory-journal";
import { validateWorkflowDocument } from "../definition";
import { compileWorkflow } from "./compile-workflow";

/**
 * A document with one llm, one code and one transition step, compiled as a run would compile it
 * and answered by a replay cassette; `policy` is spliced into the document's top level or a step.
 */
function document(workflowPolicy: string, stepPolicy: Partial<Record<"think" | "compute" | "choose", string>> = {}): string {
  const indent = (text = "") => text.split("\n").filter(Boolean).map((line) => `      ${line}\n`).join("");
  return `name: failures
${workflowPolicy}
context:
  ready: false
state_machine:
  states: [thinking, computing, choosing, done]
  initial_state: thinking
  final_states: [done]
  transitions:
    - { from: thinking, to: computing }
    - { from: computing, to: choosing }
    - { from: choosing, to: done }
steps:
    - name: think
      type: llm
      in_state: thinking
      prompt: Think about {specification}.
${indent(stepPolicy.think)}    - name: compute
      type: code
      in_state: computing
      language: javascript
      code: |
        if (!context.ready) throw new Error("not ready yet");
${indent(stepPolicy.compute)}    - name: choose
      type: transition
      in_state: choosing
      prompt: "Answer ship or pivot."
      transition_map: { ship: done, pivot: thinking }
${indent(stepPolicy.choose)}`;
}

/** The compiled machine with the run's value of `ready` (the code step throws while it is false). */
function compile(text: string, cassette: Record<string, string[]>, ready = false): { readonly machine: WorkflowMachine; readonly ready: boolean } {
  const validated = validateWorkflowDocument(text, "failures.yaml");
  if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
  return { machine: compileWorkflow(validated.definition, { generatorOverride: { kind: "replay", cassette: { steps: cassette } }, contextValues: { ready } }), ready };
}

async function run(compiled: ReturnType<typeof compile>, calls = new MemoryCallLedger(), journal = new MemoryJournal()) {
  const result = await runMachine(compiled.machine, { specification: "a rate limiter", dag: new InMemoryArtifactDag(), calls, observer: journal, newId: (key) => `id:${key}`, contextOverrides: { ready: compiled.ready } });
  const replayKeys = calls.steps.filter((step) => step.type === "action_call").map((step) => step.key);
  const failedAttempts = journal.events.filter((event) => event.type === "step.attempt_failed").map((event) => (event.type === "step.attempt_failed" ? `${event.step}#${event.attempt}` : ""));
  return { result, replayKeys, failedAttempts };
}

describe("compiled llm, code and transition steps honour on_failure and max_retries", () => {
  it("default_max_retries applies: an empty llm answer and an answer outside transition_map are retried, each call under its own key", async () => {
    const machine = compile(document("default_max_retries: 1"), { think: ["", "an idea"], choose: ["maybe", "ship"] }, true);
    const { result, replayKeys, failedAttempts } = await run(machine);
    expect(result.status).toBe("success");
    // The code step sets nothing: its output is "{}".
    expect(result.outputs).toEqual({ think: "an idea", compute: "{}", choose: "ship" });
    expect(replayKeys).toEqual(["think/attempt-1/replay", "think/attempt-2/replay", "choose/attempt-1/replay", "choose/attempt-2/replay"]);
    expect(failedAttempts).toEqual(["think#1", "choose#1"]);
  });

  it("the documented defaults (retry, 3 retries) give four attempts, then the run fails naming the step", async () => {
    const machine = compile(document(""), { think: ["", "", "", ""] });
    const { result, replayKeys } = await run(machine);
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.failedStep).toBe("think");
    expect(result.reason).toContain("(after 4 attempts)");
    expect(replayKeys).toHaveLength(4);
  });

  it("a step's own on_failure and max_retries override the workflow's", async () => {
    const machine = compile(document("default_on_failure: fail\ndefault_max_retries: 5", { think: "on_failure: skip\nmax_retries: 0" }), { think: [""], choose: ["ship"] }, true);
    const { result, replayKeys } = await run(machine);
    expect(result.status).toBe("success");
    expect(result.outputs).toEqual({ compute: "{}", choose: "ship" });
    expect(replayKeys.filter((key) => key?.startsWith("think/"))).toEqual(["think/attempt-1/replay"]);
  });

  it("llm: a cassette without an answer (a failed call) under fail ends the run failed naming the step", async () => {
    const { result } = await run(compile(document("default_max_retries: 0", { think: "on_failure: fail" }), {}));
    expect(result.status).toBe("failed");
    if (result.status === "failed") expect(result.reason).toMatch(/^Step "think" could not generate: Cassette has no step "think"/);
  });

  it("code: code that throws runs max_retries + 1 times; fail ends the run naming the step", async () => {
    const { result, failedAttempts } = await run(compile(document("", { compute: "on_failure: fail\nmax_retries: 1" }), { think: ["an idea"] }));
    expect(failedAttempts).toEqual(["compute#1", "compute#2"]);
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.failedStep).toBe("compute");
    expect(result.reason).toContain("not ready yet");
  });

  it("code: skip goes on to the state's transitions with the context unchanged", async () => {
    const { result, failedAttempts } = await run(compile(document("default_on_failure: skip\ndefault_max_retries: 0"), { think: ["an idea"], choose: ["ship"] }));
    expect(failedAttempts).toEqual(["compute#1"]);
    expect(result.status).toBe("success");
    expect(result.path).toEqual(["thinking", "computing", "choosing", "done"]);
    expect(result.context).toEqual({ ready: false });
  });

  it("transition: skip after the budget follows the state's transitions; fail ends the run naming the step", async () => {
    const skipped = await run(compile(document("default_max_retries: 1", { choose: "on_failure: skip" }), { think: ["an idea"], choose: ["maybe", "perhaps"] }, true));
    expect(skipped.result.status).toBe("success");
    expect(skipped.result.path.at(-1)).toBe("done");

    const failed = await run(compile(document("default_max_retries: 1", { choose: "on_failure: fail" }), { think: ["an idea"], choose: ["maybe", "perhaps"] }, true));
    expect(failed.result.status).toBe("failed");
    if (failed.result.status === "failed") expect(failed.result.reason).toContain('Transition step "choose" got the answer "perhaps", which is not one of "ship", "pivot"');
  });

  it("escalate on an llm, code or transition step is a validation error naming the field; as the workflow default it makes them fail", () => {
    for (const step of ["think", "compute", "choose"] as const) {
      const validated = validateWorkflowDocument(document("", { [step]: "on_failure: escalate" }), "failures.yaml");
      expect(validated.ok).toBe(false);
      if (!validated.ok) expect(validated.problems.map((problem) => `${problem.path}: ${problem.message}`).join("\n")).toMatch(/on_failure: a (llm|code|transition) step cannot escalate/);
    }
    const validated = validateWorkflowDocument(document("default_on_failure: escalate"), "failures.yaml");
    expect(validated.ok).toBe(true);
    if (validated.ok) expect(validated.definition.steps.map((step) => step.on_failure)).toEqual(["fail", "fail", "fail"]);
  });

  it("a code step whose sandbox this server lacks fails at once, naming the server: no retry, on_failure: skip ignored", async () => {
    const text = document("default_on_failure: skip\ndefault_max_retries: 3").replace("language: javascript", "language: python").replace('if (!context.ready) throw new Error("not ready yet");', "x = 1");
    const validated = validateWorkflowDocument(text, "failures.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    const machine = compileWorkflow(validated.definition, { generatorOverride: { kind: "replay", cassette: { steps: { think: ["an idea"] } } }, pythonExecutable: "/nonexistent/python3" });
    const { result, failedAttempts } = await run({ machine, ready: false });
    expect(failedAttempts).toEqual([]);
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.failedStep).toBe("compute");
    expect(result.reason).toMatch(/^Step "compute" cannot run as this server is configured: the python sandbox cannot run here/);
  });

  it("a resumed run replays the retried attempts from the ledger: no new call", async () => {
    const calls = new MemoryCallLedger();
    const cassette = { think: ["", "an idea"], choose: ["maybe", "ship"] };
    const first = await run(compile(document("default_max_retries: 2"), cassette, true), calls);
    expect(first.result.status).toBe("success");
    const callsBefore = calls.steps.length;
    // Nothing recalled from a journal: every attempt runs again and is answered by the ledger.
    const again = await run(compile(document("default_max_retries: 2"), { think: ["", "another idea"], choose: ["pivot", "pivot"] }, true), calls);
    expect(again.result.status).toBe("success");
    expect(again.result.outputs).toEqual({ think: "an idea", compute: "{}", choose: "ship" });
    expect(calls.steps.length).toBe(callsBefore);
  });
});
