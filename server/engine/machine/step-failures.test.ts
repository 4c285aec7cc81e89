import { describe, expect, it } from "vitest";
import { createPromptTemplate } from "../domain/prompt-template";
import { parseCondition, type ConditionNode } from "../conditions";
import { GenerationFailedError, InvalidWorkflowError, StepConfigurationError } from "../errors";
import type { Generation, GenerationRequest, Generator } from "../ports/generator";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { MemoryJournal } from "../testing/memory-journal";
import { RecordingObserver } from "../testing/recording-observer";
import { ScriptedGenerator } from "../testing/scripted-generator";
import type { CodeMachineStep, CodeStepOutcome, LlmMachineStep, MachineResult, MachineStep, OnFailure, TransitionMachineStep, WorkflowMachine } from "./machine";
import { runMachine } from "./run-machine";

const template = createPromptTemplate({ role: "", constraints: "", task: "Answer.", feedbackWrapper: "Last time: {feedback}" });

function cond(source: string): ConditionNode {
  const parsed = parseCondition(source);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.expression;
}

/** One step in state "s"; a skipped or finished step goes on to "end" by the state's transition. */
function oneStep(step: MachineStep, context: WorkflowMachine["context"] = {}): WorkflowMachine {
  return { states: ["s", "end"], initialState: "s", finalStates: ["end"], transitions: [{ from: "s", to: "end", condition: cond("true") }], steps: [step], context };
}

async function run(machine: WorkflowMachine) {
  const observer = new RecordingObserver();
  const calls = new MemoryCallLedger();
  const result = await runMachine(machine, { specification: "spec", dag: new InMemoryArtifactDag(), observer, calls });
  return { result, observer, calls };
}

function failedOf(result: MachineResult) {
  if (result.status !== "failed") throw new Error(`expected failed, got ${result.status}`);
  return result;
}

/** Replies in order through the run's ledger (so call keys are visible); a `fail:` reply is a failed call. */
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
      const content = String(outcome.result.content);
      if (content.startsWith("fail:")) throw new GenerationFailedError(content.slice(5));
      return { content };
    },
  };
}

const llm = (generator: Generator, extra: Partial<LlmMachineStep> = {}): LlmMachineStep => ({ kind: "llm", name: "talk", inState: "s", generator, template, ...extra });
const transition = (generator: Generator, extra: Partial<TransitionMachineStep> = {}): TransitionMachineStep => ({
  kind: "transition",
  name: "choose",
  inState: "s",
  generator,
  template,
  transitionMap: { ship: "end", pivot: "s" },
  ...extra,
});
function code(outcomes: readonly (CodeStepOutcome | Error)[], extra: Partial<CodeMachineStep> = {}): CodeMachineStep & { readonly runs: () => number } {
  let runs = 0;
  return {
    kind: "code",
    name: "compute",
    inState: "s",
    run: async () => {
      const outcome = outcomes[runs++];
      if (outcome === undefined) throw new Error("code: script exhausted");
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    runs: () => runs,
    ...extra,
  };
}

const failedAttempts = (observer: RecordingObserver) => observer.events.filter((event) => event.type === "step.attempt_failed");

describe("llm steps: max_retries and on_failure", () => {
  it("retries a failed model call, each attempt under its own call key", async () => {
    const generator = ledgerGenerator(["fail:endpoint down", "an answer"]);
    const { result, calls, observer } = await run(oneStep(llm(generator, { maxRetries: 1 })));
    expect(result.status).toBe("success");
    expect(result.outputs.talk).toBe("an answer");
    expect(calls.steps.filter((step) => step.type === "action_call").map((step) => step.key)).toEqual(["talk/attempt-1/model", "talk/attempt-2/model"]);
    expect(failedAttempts(observer)).toEqual([{ type: "step.attempt_failed", step: "talk", kind: "llm", attempt: 1, reason: 'Step "talk" could not generate: endpoint down', artifactId: expect.any(String) }]);
  });

  it("retries an empty answer, telling the model its reply was empty", async () => {
    const generator = new ScriptedGenerator(["  ", "an answer"]);
    const { result } = await run(oneStep(llm(generator, { maxRetries: 2 })));
    expect(result.outputs.talk).toBe("an answer");
    expect(generator.calls).toBe(2);
    expect(generator.prompts[1]).toContain("Last time: The reply was empty");
  });

  it("retries a reply cut short", async () => {
    let calls = 0;
    const generator: Generator = { generate: async () => (++calls === 1 ? { content: "half", incomplete: "The reply was cut at the size limit." } : { content: "whole" }) };
    const { result } = await run(oneStep(llm(generator, { maxRetries: 1 })));
    expect(result.outputs.talk).toBe("whole");
  });

  it("fail: after the budget the run fails naming the step and the attempts", async () => {
    const generator = new ScriptedGenerator(["", "", ""]);
    const { result, observer } = await run(oneStep(llm(generator, { maxRetries: 2, onFailure: "fail" })));
    const failed = failedOf(result);
    expect(failed.failedStep).toBe("talk");
    expect(failed.reason).toBe('Step "talk" got no usable answer: The reply was empty: answer with the complete artifact. (after 3 attempts)');
    expect(generator.calls).toBe(3);
    expect(observer.events.some((event) => event.type === "step.exhausted" && event.attempts === 3)).toBe(true);
  });

  it("retry (spent) ends the run failed like fail", async () => {
    const { result } = await run(oneStep(llm(new ScriptedGenerator(["", ""]), { maxRetries: 1, onFailure: "retry" })));
    expect(failedOf(result).failedStep).toBe("talk");
  });

  it("skip: after the budget the machine goes on as though the step had not run (no output)", async () => {
    const generator = ledgerGenerator(["fail:down", "fail:still down"]);
    const { result } = await run(oneStep(llm(generator, { maxRetries: 1, onFailure: "skip" })));
    expect(result.status).toBe("success");
    expect(result.path).toEqual(["s", "end"]);
    expect(result.outputs).toEqual({});
  });

  it("skip follows the step's transition_to when it has one", async () => {
    const machine: WorkflowMachine = {
      ...oneStep(llm(new ScriptedGenerator([""]), { onFailure: "skip", transitionTo: "other" })),
      states: ["s", "other", "end"],
      finalStates: ["other", "end"],
    };
    const { result } = await run(machine);
    expect(result.path).toEqual(["s", "other"]);
  });

  it("without max_retries and on_failure the engine makes one attempt and fails", async () => {
    const generator = new ScriptedGenerator([""]);
    const { result } = await run(oneStep(llm(generator)));
    expect(failedOf(result).failedStep).toBe("talk");
    expect(generator.calls).toBe(1);
  });

  it("a configuration error is not retried and not skipped", async () => {
    let calls = 0;
    const generator: Generator = {
      generate: async () => {
        calls++;
        throw new StepConfigurationError("model endpoint has no key", "server");
      },
    };
    const { result, observer } = await run(oneStep(llm(generator, { maxRetries: 3, onFailure: "skip" })));
    expect(failedOf(result).reason).toBe('Step "talk" cannot run as this server is configured: model endpoint has no key');
    expect(calls).toBe(1);
    expect(failedAttempts(observer)).toEqual([]);
  });
});

describe("transition steps: max_retries and on_failure", () => {
  it("an answer outside the map retries with feedback naming the allowed answers", async () => {
    const generator = new ScriptedGenerator(["maybe", "Ship"]);
    const { result } = await run(oneStep(transition(generator, { maxRetries: 1 })));
    expect(result.status).toBe("success");
    // The output is the key as the map spells it, not the model's spelling.
    expect(result.outputs.choose).toBe("ship");
    expect(generator.prompts[1]).toContain('Last time: Transition step "choose" got the answer "maybe", which is not one of "ship", "pivot": answer with exactly one of them');
  });

  it("fail: after the budget the run fails naming the step", async () => {
    const { result } = await run(oneStep(transition(new ScriptedGenerator(["maybe", "perhaps"]), { maxRetries: 1, onFailure: "fail" })));
    const failed = failedOf(result);
    expect(failed.failedStep).toBe("choose");
    expect(failed.reason).toContain('got the answer "perhaps"');
    expect(failed.reason).toContain("(after 2 attempts)");
  });

  it("skip: after the budget the state's transitions choose the next state", async () => {
    const { result } = await run(oneStep(transition(new ScriptedGenerator(["maybe"]), { onFailure: "skip" })));
    expect(result.status).toBe("success");
    expect(result.path).toEqual(["s", "end"]);
    expect(result.outputs).toEqual({});
  });

  it("a failed model call is retried too", async () => {
    const { result } = await run(oneStep(transition(ledgerGenerator(["fail:timeout", "ship"]), { maxRetries: 1 })));
    expect(result.path).toEqual(["s", "end"]);
  });
});

describe("code steps: max_retries and on_failure", () => {
  it("code that raises runs again within the budget", async () => {
    const step = code([new Error("ZeroDivisionError"), { error: "NameError: x" }, { updates: { ready: true } }], { maxRetries: 2 });
    const { result, observer } = await run(oneStep(step, { ready: false }));
    expect(result.status).toBe("success");
    expect(result.context.ready).toBe(true);
    expect(step.runs()).toBe(3);
    expect(failedAttempts(observer).map((event) => event.type === "step.attempt_failed" && event.reason)).toEqual([
      'Code step "compute" failed: ZeroDivisionError',
      'Code step "compute" failed: NameError: x',
    ]);
  });

  it("fail: after the budget the run fails naming the step", async () => {
    const step = code([{ error: "boom" }, { error: "boom" }], { maxRetries: 1, onFailure: "fail" });
    const failed = failedOf((await run(oneStep(step))).result);
    expect(failed.failedStep).toBe("compute");
    expect(failed.reason).toBe('Code step "compute" failed: boom (after 2 attempts)');
  });

  it("skip: after the budget the run goes on with the context unchanged", async () => {
    const step = code([{ updates: { undeclared: 1 } }], { onFailure: "skip" });
    const { result } = await run(oneStep(step, { ready: false }));
    expect(result.status).toBe("success");
    expect(result.context).toEqual({ ready: false });
  });

  it("a configuration error (no sandbox) is not retried and not skipped", async () => {
    const step = code([new StepConfigurationError("the python sandbox cannot run here", "server")], { maxRetries: 3, onFailure: "skip" });
    const failed = failedOf((await run(oneStep(step))).result);
    expect(failed.reason).toBe('Step "compute" cannot run as this server is configured: the python sandbox cannot run here');
    expect(step.runs()).toBe(1);
  });
});

describe("on_failure: retry, once the budget is spent, fails like fail", () => {
  it.each<[string, MachineStep, string]>([
    ["llm", llm(new ScriptedGenerator(["", ""]), { maxRetries: 1, onFailure: "retry" }), "talk"],
    ["transition", transition(new ScriptedGenerator(["maybe", "perhaps"]), { maxRetries: 1, onFailure: "retry" }), "choose"],
    ["code", code([{ error: "boom" }, { error: "boom" }], { maxRetries: 1, onFailure: "retry" }), "compute"],
  ])("%s", async (_kind, step, name) => {
    const { result, observer } = await run(oneStep(step));
    const failed = failedOf(result);
    expect(failed.failedStep).toBe(name);
    expect(failed.reason).toContain("(after 2 attempts)");
    expect(failedAttempts(observer)).toHaveLength(2);
  });
});

describe("escalate on steps without a guard", () => {
  it.each<MachineStep>([llm(new ScriptedGenerator([])), transition(new ScriptedGenerator([])), code([])])("is refused before the run ($kind)", async (step) => {
    const onFailure: OnFailure = "escalate";
    await expect(run(oneStep({ ...step, onFailure } as MachineStep))).rejects.toThrow(InvalidWorkflowError);
    await expect(run(oneStep({ ...step, onFailure } as MachineStep))).rejects.toThrow(/on_failure "escalate" is for action_pair steps/);
  });

  it("a bad retry budget is refused before the run", async () => {
    await expect(run(oneStep(llm(new ScriptedGenerator([]), { maxRetries: -1 })))).rejects.toThrow(/maxRetries must be a whole number/);
  });
});

describe("resuming a run whose step retried", () => {
  it("replays every attempt's call from the ledger: no new model call, same outcome", async () => {
    const dag = new InMemoryArtifactDag();
    const journal = new MemoryJournal();
    const calls = new MemoryCallLedger();
    const machine = (talk: Generator, next: Generator): WorkflowMachine => ({
      states: ["s", "t", "end"],
      initialState: "s",
      finalStates: ["end"],
      transitions: [],
      steps: [
        { kind: "transition", name: "choose", inState: "s", generator: talk, template, transitionMap: { go: "t" }, maxRetries: 2 },
        { kind: "llm", name: "next", inState: "t", generator: next, template, transitionTo: "end" },
      ],
      context: {},
    });
    const turn = (m: WorkflowMachine) => runMachine(m, { specification: "spec", dag, observer: journal, calls, newId: (key) => `id:${key}` });
    const crashing: Generator = { generate: async () => Promise.reject(new Error("worker died")) };

    // The first turn retries "choose" twice, then the worker dies in the middle of "next".
    const first = ledgerGenerator(["fail:down", "maybe", "go"]);
    await expect(turn(machine(first, crashing))).rejects.toThrow("worker died");
    expect(first.requests).toHaveLength(3);

    // A turn without the journal (nothing recalled) runs choose's attempts again: each is answered from the call ledger.
    const modelCalls = () => calls.steps.filter((step) => step.type === "action_call").length;
    const before = modelCalls();
    const replaying = ledgerGenerator(["fail:never asked", "never asked", "never asked"]);
    const resumed = await runMachine(machine(replaying, new ScriptedGenerator(["done"])), { specification: "spec", dag, observer: new MemoryJournal(), calls, newId: (key) => `id:${key}` });
    expect(resumed.status).toBe("success");
    expect(resumed.path).toEqual(["s", "t", "end"]);
    expect(resumed.outputs.choose).toBe("go");
    expect(modelCalls()).toBe(before);

    // And with the journal, the resumed turn reads "choose" back without asking its generator at all.
    const untouched = ledgerGenerator([]);
    const again = await turn(machine(untouched, new ScriptedGenerator(["done"])));
    expect(again.status).toBe("success");
    expect(untouched.requests).toHaveLength(0);
  });
});
