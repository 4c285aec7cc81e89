import { describe, expect, it } from "vitest";
import { always } from "../domain/action-pair";
import { failed, passed } from "../domain/guard-result";
import { createPromptTemplate } from "../domain/prompt-template";
import { parseCondition } from "../conditions";
import { InvalidWorkflowError } from "../errors";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { RecordingObserver } from "../testing/recording-observer";
import { ScriptedGenerator } from "../testing/scripted-generator";
import { guardFrom } from "../testing/scripted-guard";
import type { MachineStep, OnFailure, WorkflowMachine } from "./machine";
import { runMachine } from "./run-machine";

// Every step type × every on_failure, with one retry allowed (two attempts). A "bad" attempt is
// what each type retries: an empty llm answer, a transition answer outside its map, code that
// raises, an artifact its guard fails.
const template = createPromptTemplate({ role: "", constraints: "", task: "Go.", feedbackWrapper: "Before: {feedback}" });
const KINDS = ["llm", "code", "transition", "action_pair"] as const;
type Kind = (typeof KINDS)[number];

function stepOf(kind: Kind, attempts: readonly ("bad" | "good")[], onFailure: OnFailure): MachineStep & { readonly runs: () => number } {
  let runs = 0;
  const next = () => attempts[runs++] ?? "bad";
  const generator = { generate: async () => ({ content: kind === "llm" ? (next() === "good" ? "an answer" : "") : kind === "transition" ? (next() === "good" ? "go" : "maybe") : next() }) };
  const common = { name: "work", inState: "s", runs: () => runs };
  switch (kind) {
    case "llm":
      return { ...common, kind, generator, template, maxRetries: 1, onFailure };
    case "transition":
      return { ...common, kind, generator, template, transitionMap: { go: "end" }, maxRetries: 1, onFailure };
    case "code":
      return { ...common, kind, maxRetries: 1, onFailure, run: async () => (next() === "good" ? { updates: { done: true } } : { error: "ValueError: not yet" }) };
    case "action_pair":
      return {
        ...common,
        kind,
        guardId: "g_work",
        actionPair: { precondition: always, generator, guard: guardFrom((artifact) => (artifact.content === "good" ? passed() : failed("not good"))), template },
        guardArtifactDeps: [],
        rmax: 1,
        onFailure,
      };
  }
}

function machineOf(step: MachineStep): WorkflowMachine {
  const parsed = parseCondition("true");
  if (!parsed.ok) throw new Error(parsed.message);
  return { states: ["s", "end"], initialState: "s", finalStates: ["end"], transitions: [{ from: "s", to: "end", condition: parsed.expression }], steps: [step], context: { done: false } };
}

async function run(step: MachineStep) {
  const observer = new RecordingObserver();
  const result = await runMachine(machineOf(step), { specification: "spec", dag: new InMemoryArtifactDag(), observer, calls: new MemoryCallLedger() });
  return { result, observer };
}

describe.each(KINDS)("%s step", (kind) => {
  it("a bad first attempt is retried and the second succeeds, whatever on_failure says", async () => {
    for (const onFailure of ["retry", "skip", "fail"] as const) {
      const step = stepOf(kind, ["bad", "good"], onFailure);
      const { result } = await run(step);
      expect(result.status, onFailure).toBe("success");
      expect(step.runs()).toBe(2);
      expect(result.outputs.work).toBeDefined();
    }
  });

  it.each(["retry", "fail"] as const)("on_failure %s: after two bad attempts the run fails naming the step", async (onFailure) => {
    const step = stepOf(kind, ["bad", "bad"], onFailure);
    const { result, observer } = await run(step);
    expect(result.status).toBe("failed");
    if (result.status === "failed") expect(result.failedStep).toBe("work");
    expect(step.runs()).toBe(2);
    expect(observer.types()).toContain("step.exhausted");
  });

  it("on_failure skip: after two bad attempts the run goes on without the step's output", async () => {
    const step = stepOf(kind, ["bad", "bad"], "skip");
    const { result } = await run(step);
    expect(result.status).toBe(kind === "action_pair" ? "failed" : "success");
    // A skipped action pair leaves its guard unsatisfied: the goal is not reached (domain/goal.ts).
    if (result.status === "failed") expect(result.reason).toMatch(/^Goal not reached/);
    expect(result.path).toEqual(["s", "end"]);
    expect(result.outputs.work).toBeUndefined();
    expect(step.runs()).toBe(2);
  });

  it("on_failure escalate", async () => {
    const step = stepOf(kind, ["bad", "bad"], "escalate");
    if (kind !== "action_pair") {
      await expect(run(step)).rejects.toThrow(InvalidWorkflowError);
      expect(step.runs()).toBe(0);
      return;
    }
    const { result } = await run(step);
    expect(result.status).toBe("escalation");
    expect(step.runs()).toBe(2);
  });
});

describe("failed attempts are recorded with their reason", () => {
  it.each<[Kind, RegExp]>([
    ["llm", /got no usable answer/],
    ["transition", /got the answer "maybe", which is not one of "go": answer with exactly one of them/],
    ["code", /Code step "work" failed: ValueError: not yet/],
  ])("%s", async (kind, reason) => {
    const { observer } = await run(stepOf(kind, ["bad", "good"], "fail"));
    const attemptFailed = observer.events.find((event) => event.type === "step.attempt_failed");
    expect(attemptFailed).toMatchObject({ step: "work", kind, attempt: 1 });
    expect(attemptFailed?.type === "step.attempt_failed" && attemptFailed.reason).toMatch(reason);
  });

  it("a transition answer outside its map is retried with feedback naming the allowed answers", async () => {
    const generator = new ScriptedGenerator(["perhaps", "go"]);
    const step: MachineStep = { kind: "transition", name: "work", inState: "s", generator, template, transitionMap: { go: "end", stop: "end" }, maxRetries: 1 };
    const { result } = await run(step);
    expect(result.status).toBe("success");
    expect(generator.prompts[1]).toContain('Before: Transition step "work" got the answer "perhaps", which is not one of "go", "stop": answer with exactly one of them');
  });
});
