import { describe, expect, it } from "vitest";
import { describeNow, nowSentence, type NowInput } from "./now-summary";

const machine: NowInput["machine"] = {
  current: null,
  states: [
    { name: "writing_tests", steps: [{ name: "write_tests", type: "action_pair", guards: ["syntax"], maxAttempts: 3 }] },
    { name: "implementing", steps: [{ name: "implement", type: "action_pair", guards: ["syntax", "security", "tdd"], maxAttempts: 4 }] },
    { name: "observing", steps: [{ name: "observe", type: "code", guards: [], maxAttempts: null }] },
    { name: "reflecting", steps: [{ name: "reflect", type: "transition", guards: [], maxAttempts: null }] },
    { name: "done", steps: [] },
  ],
};

type Entry = NowInput["ledger"]["entries"][number];
const e = (type: string, payload: Record<string, unknown> = {}): Entry => ({ type, payload });

function run(fields: Partial<NowInput>): NowInput {
  return { status: "running", currentStep: null, attemptCount: 0, finishedAt: null, finalResult: null, cancellation: null, escalations: [], machine, ledger: { entries: [] }, ...fields };
}

const started = [e("run.started"), e("step.started", { step: "write_tests", guardId: "g_test", dependencyIds: {} }), e("action_call", { policy: "replay" }), e("action_result"), e("generator.completed", { step: "write_tests" }), e("guard.completed", { step: "write_tests", passed: true }), e("state.advanced", { step: "write_tests" })];
const implementing = [...started, e("step.started", { step: "implement", guardId: "g_impl", dependencyIds: {} })];

describe("describeNow while the run goes on", () => {
  it("waits for the model on the step's first attempt", () => {
    const summary = describeNow(run({ ledger: { entries: [...implementing, e("action_call", { policy: "model" })] } }));
    expect(summary).toMatchObject({ tone: "active", headline: "Running", position: { state: "implementing", step: "implement", attempt: 1, maxAttempts: 4 }, activity: "waiting for the model" });
    expect(nowSentence(summary)).toBe("Running — in state implementing, step implement, attempt 1 of 4: waiting for the model");
  });

  it("counts failed verdicts: the second attempt waits for its replayed answer", () => {
    const entries = [...implementing, e("action_call", { policy: "replay" }), e("action_result"), e("generator.completed", { step: "implement" }), e("guard.completed", { step: "implement", passed: false }), e("action_call", { policy: "replay" })];
    expect(nowSentence(describeNow(run({ ledger: { entries } })))).toBe("Running — in state implementing, step implement, attempt 2 of 4: waiting for the recorded answer (replay)");
  });

  it("after the answer, the attempt is being checked by the step's guards, named", () => {
    const summary = describeNow(run({ ledger: { entries: [...implementing, e("action_call", { policy: "model" }), e("action_result")] } }));
    expect(summary.activity).toBe("checking attempt 1 with 3 guards (syntax, security, tdd)");
  });

  it("a failed verdict: the next attempt is on its way", () => {
    const summary = describeNow(run({ ledger: { entries: [...implementing, e("action_call", { policy: "model" }), e("action_result"), e("guard.completed", { step: "implement", passed: false })] } }));
    expect(summary.position?.attempt).toBe(2);
    expect(summary.activity).toBe("attempt 1 failed its guards; asking again with the feedback");
  });

  it("an agent's tool call names the tool", () => {
    expect(describeNow(run({ ledger: { entries: [...implementing, e("action_call", { policy: "read_dependency" })] } })).activity).toBe('waiting for the tool "read_dependency"');
  });

  it("a code step runs in the sandbox; a transition step has no attempts", () => {
    expect(nowSentence(describeNow(run({ ledger: { entries: [e("run.started"), e("step.started", { step: "observe", kind: "code" })] } })))).toBe("Running — in state observing, step observe: running its code in the sandbox");
    const reflecting = describeNow(run({ ledger: { entries: [e("run.started"), e("step.started", { step: "reflect", kind: "transition" }), e("action_call", { policy: "model" })] } }));
    expect(reflecting.position).toEqual({ state: "reflecting", step: "reflect", attempt: null, maxAttempts: null });
    expect(reflecting.activity).toBe("waiting for the model");
  });

  it("an llm, code or transition step counts its attempts once one has failed", () => {
    const retrying = describeNow(
      run({ ledger: { entries: [e("run.started"), e("step.started", { step: "reflect", kind: "transition" }), e("step.attempt_failed", { step: "reflect", kind: "transition", attempt: 1, reason: "not an allowed answer" })] } }),
    );
    expect(retrying.position?.attempt).toBe(2);
    expect(retrying.activity).toBe("attempt 1 failed (not an allowed answer); trying again");
  });

  it("queued, queued again after a crash, and picked up but not started", () => {
    expect(nowSentence(describeNow(run({ status: "queued" })))).toBe("Queued — waiting for a worker");
    expect(describeNow(run({ status: "queued", ledger: { entries: started } })).headline).toBe("Queued again");
    expect(describeNow(run({ status: "dispatched" }))).toMatchObject({ tone: "waiting", headline: "Starting" });
  });
});

describe("describeNow when the run waits or ended", () => {
  it("waits for a person: the pending escalation to link to, its step and state", () => {
    const expiresAt = new Date("2026-01-04T00:00:00.000Z");
    const summary = describeNow(
      run({
        status: "suspended",
        escalations: [
          { id: "esc-old", stepName: "write_tests", status: "approved", expiresAt: null },
          { id: "esc-1", stepName: "implement", status: "pending", expiresAt },
        ],
      }),
    );
    expect(summary).toMatchObject({ tone: "person", headline: "Waiting for a person", escalationId: "esc-1", at: expiresAt, position: { state: "implementing", step: "implement" } });
    expect(nowSentence(summary)).toBe("Waiting for a person — in state implementing, step implement: to decide the escalation on step implement");
  });

  it("waits for tool calls, not an escalation: says how many and where to answer them", () => {
    const summary = describeNow(run({ status: "suspended", currentStep: "implement", waitingToolCount: 2 }));
    expect(summary).toMatchObject({ tone: "person", headline: "Waiting for 2 tool calls", escalationId: null, position: { state: "implementing", step: "implement" } });
    expect(nowSentence(summary)).toContain("the run resumes when every call below has its answer");
    expect(describeNow(run({ status: "suspended", currentStep: "implement", waitingToolCount: 1 })).headline).toBe("Waiting for a tool call");
    // A pending escalation still comes first.
    expect(describeNow(run({ status: "suspended", waitingToolCount: 1, escalations: [{ id: "e", stepName: "implement", status: "pending", expiresAt: null }] })).headline).toBe("Waiting for a person");
  });

  it("succeeded, with its attempts and the state it ended in", () => {
    const finishedAt = new Date("2026-01-01T00:00:00.000Z");
    const summary = describeNow(run({ status: "succeeded", attemptCount: 3, finishedAt, machine: { ...machine, current: "done" } }));
    expect(nowSentence(summary)).toBe("Succeeded in 3 attempts — ended in state done");
    expect(summary.at).toBe(finishedAt);
    expect(describeNow(run({ status: "succeeded", attemptCount: 1 })).headline).toBe("Succeeded in 1 attempt");
  });

  it("cancelled by a person, when, and never 'Failed at (run)'", () => {
    const at = new Date("2026-01-02T10:00:00.000Z");
    const summary = describeNow(run({ status: "cancelled", cancellation: { by: "alice@example.com", reason: "not needed", at }, finalResult: { status: "failed", failedStep: "(run)", reason: "Cancelled by alice@example.com: not needed" } }));
    expect(summary).toMatchObject({ tone: "cancelled", headline: "Cancelled by alice@example.com", at, detail: "not needed" });
    expect(nowSentence(summary)).not.toContain("Failed");
    expect(describeNow(run({ status: "cancelled" })).headline).toBe("Cancelled");
  });

  it("failed at a step with the reason; a run-level failure names no step", () => {
    const failed = describeNow(run({ status: "failed", finalResult: { status: "failed", failedStep: "implement", reason: "retry budget exhausted" } }));
    expect(nowSentence(failed)).toBe("Failed at step implement — in state implementing, step implement (retry budget exhausted)");
    expect(describeNow(run({ status: "failed", finalResult: { status: "failed", failedStep: "(run)", reason: "Given up" } })).headline).toBe("Failed");
  });
});
