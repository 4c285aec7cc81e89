import { describe, expect, it } from "vitest";
import { always } from "../domain/action-pair";
import { failed, passed } from "../domain/guard-result";
import type { Generator } from "../ports/generator";
import type { Guard } from "../ports/guard";
import { sequentialIds } from "../ports/ids";
import { abortable, abortableSleep } from "../run/abortable";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { RecordingObserver } from "../testing/recording-observer";
import type { MachineStep, WorkflowMachine } from "./machine";
import { runMachine } from "./run-machine";

class Stopped extends Error {}

function machineOf(step: MachineStep): WorkflowMachine {
  return { states: ["work", "done"], initialState: "work", finalStates: ["done"], transitions: [{ from: "work", to: "done", condition: { kind: "literal", value: true } }], steps: [step], context: { n: 1 } };
}

function pairStep(generator: Generator, guard: Guard): MachineStep {
  return { kind: "action_pair", name: "write", inState: "work", guardId: "g", actionPair: { precondition: always, generator, guard }, guardArtifactDeps: [], rmax: 2, onFailure: "fail" };
}

/** A generator that waits on the run's call ledger until the signal aborts (a long model call or replay delay). */
const waitingGenerator: Generator = {
  async generate(request) {
    const outcome = await request.calls.call(`${request.callKey}/model`, { actor: "assistant", policy: "model", payload: {} }, async () => {
      await abortableSleep(3_600_000, request.signal);
      return { content: "never" };
    });
    return { content: String(outcome.ok ? outcome.result.content : "") };
  },
};

function start(machine: WorkflowMachine, signal: AbortSignal) {
  const observer = new RecordingObserver();
  const calls = new MemoryCallLedger();
  const promise = runMachine(machine, { specification: "x", dag: new InMemoryArtifactDag(), observer, calls, newId: sequentialIds("a"), signal });
  return { promise, observer, calls };
}

describe("an aborted run stops at once and records nothing the abort interrupted", () => {
  it("a generator waiting an hour: runMachine rejects with the signal's reason, no result, no verdict", async () => {
    const controller = new AbortController();
    const { promise, observer, calls } = start(machineOf(pairStep(waitingGenerator, { validate: async () => passed() })), controller.signal);
    setTimeout(() => controller.abort(new Stopped("cancel")), 50);
    const started = performance.now();
    await expect(promise).rejects.toBeInstanceOf(Stopped);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(observer.types()).not.toContain("guard.completed");
    expect(observer.types()).not.toContain("run.finished");
    expect(calls.steps.filter((step) => step.type === "action_result")).toHaveLength(0);
  });

  it("a guard that answers 'failed' because the abort killed its sandbox: not recorded as a verdict", async () => {
    const controller = new AbortController();
    const guard: Guard = {
      async validate(_artifact, _dependencies, options) {
        await new Promise((resolve) => options?.signal?.addEventListener("abort", resolve, { once: true }));
        return failed("the sandbox was killed");
      },
    };
    const generator: Generator = { generate: async () => ({ content: "x" }) };
    const { promise, observer } = start(machineOf(pairStep(generator, guard)), controller.signal);
    setTimeout(() => controller.abort(new Stopped("shutdown")), 50);
    await expect(promise).rejects.toBeInstanceOf(Stopped);
    expect(observer.types()).not.toContain("guard.completed");
  });

  it("a code step cut short by the abort is not a step failure: the run rejects with the reason", async () => {
    const controller = new AbortController();
    const step: MachineStep = {
      kind: "code",
      name: "compute",
      inState: "work",
      run: async (_context, signal) => {
        await new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true }));
        return { error: "killed" };
      },
    };
    const { promise, observer } = start(machineOf(step), controller.signal);
    setTimeout(() => controller.abort(new Stopped("cancel")), 50);
    await expect(promise).rejects.toBeInstanceOf(Stopped);
    expect(observer.types()).not.toContain("run.finished");
    expect(observer.types()).not.toContain("step.completed");
  });

  it("a run whose signal never aborts is unchanged (benign)", async () => {
    const generator: Generator = { generate: async () => ({ content: "x" }) };
    const { promise } = start(machineOf(pairStep(generator, { validate: async () => passed() })), new AbortController().signal);
    expect((await promise).status).toBe("success");
  });
});

describe("abortable and abortableSleep", () => {
  it("settle like the promise, or reject with the reason when the signal aborts first", async () => {
    await expect(abortable(Promise.resolve(1), new AbortController().signal)).resolves.toBe(1);
    const controller = new AbortController();
    const pending = abortable(new Promise(() => {}), controller.signal);
    controller.abort(new Stopped("x"));
    await expect(pending).rejects.toBeInstanceOf(Stopped);
    const aborted = new AbortController();
    aborted.abort(new Stopped("already"));
    await expect(abortableSleep(10, aborted.signal)).rejects.toBeInstanceOf(Stopped);
    await expect(abortableSleep(5)).resolves.toBeUndefined();
  });
});
