import { describe, expect, it } from "vitest";
import { createArtifact } from "../domain/artifact";
import { failed, fatal, passed } from "../domain/guard-result";
import type { WorkflowResult } from "../domain/workflow-result";
import { initialWorkflowState, satisfy } from "../domain/workflow-state";
import { recordEvent } from "./record-event";
import { summarizeResult } from "./summarize-result";

const now = new Date("2025-06-01T12:00:00.000Z");
const test = createArtifact({ id: "t-1", content: "def test_lru(): ... (long test body)", version: 1, parentId: null });
const impl1 = createArtifact({ id: "i-1", content: "class LRUCache: put only", version: 1, parentId: null });
const impl2 = createArtifact({ id: "i-2", content: "class LRUCache: with get", version: 2, parentId: "i-1" });

describe("recordEvent", () => {
  it("run.started: engine entry with the specification; the run starts running now", () => {
    expect(recordEvent({ type: "run.started", specification: "Implement LRU Cache" }, now)).toEqual({
      ledger: { actor: "engine", type: "run.started", payload: { specification: "Implement LRU Cache" } },
      patch: { status: "running", startedAt: now },
    });
  });

  it("step.started: engine entry with the dependency ids; sets the current step", () => {
    expect(recordEvent({ type: "step.started", step: "impl", guardId: "g_impl", dependencyIds: { test: "t-1" } }, now)).toEqual({
      ledger: { actor: "engine", type: "step.started", payload: { step: "impl", guardId: "g_impl", dependencyIds: { test: "t-1" } } },
      patch: { currentStep: "impl" },
    });
  });

  it("step.started of an llm, transition or code step: engine entry naming its kind; sets the current step", () => {
    expect(recordEvent({ type: "step.started", step: "ideate", kind: "llm" }, now)).toEqual({
      ledger: { actor: "engine", type: "step.started", payload: { step: "ideate", kind: "llm" } },
      patch: { currentStep: "ideate" },
    });
  });

  it("step.completed: engine entry with the output and the prompt it was generated from, or a code step's updates", () => {
    expect(recordEvent({ type: "step.completed", step: "ideate", kind: "llm", output: "an idea", prompt: "# TASK\nIdeate" }, now)).toEqual({
      ledger: { actor: "engine", type: "step.completed", payload: { step: "ideate", kind: "llm", output: "an idea", prompt: "# TASK\nIdeate" } },
      patch: { stepsCompletedIncrement: 1 },
    });
    expect(recordEvent({ type: "step.completed", step: "observe", kind: "code", updates: { seen: true } }, now).ledger.payload).toEqual({ step: "observe", kind: "code", updates: { seen: true } });
  });

  it("generator.completed: generator entry with id, hash and metadata; counts one attempt", () => {
    const record = recordEvent(
      { type: "generator.completed", step: "impl", attempt: 2, artifactId: "i-2", contentHash: impl2.contentHash, metadata: { model: "m" } },
      now,
    );
    expect(record).toEqual({
      ledger: {
        actor: "generator",
        type: "generator.completed",
        payload: { step: "impl", attempt: 2, artifactId: "i-2", contentHash: impl2.contentHash, metadata: { model: "m" } },
      },
      patch: { attemptIncrement: 1 },
    });
    expect(record.escalation).toBeUndefined();
  });

  it.each([
    ["a pass", passed("fine")],
    ["a failure", failed("Missing get method")],
    ["a fatal failure", fatal("Security: os.system forbidden")],
  ])("guard.completed with %s: guard entry carrying the whole verdict; no run change, no escalation", (_label, result) => {
    const record = recordEvent({ type: "guard.completed", step: "impl", attempt: 1, artifactId: "i-1", result }, now);
    expect(record).toEqual({
      ledger: {
        actor: "guard",
        type: "guard.completed",
        payload: { step: "impl", attempt: 1, artifactId: "i-1", passed: result.passed, feedback: result.feedback, fatal: result.fatal },
      },
      patch: {},
    });
  });

  it("state.advanced: engine entry; stores the new workflow state and counts a completed step", () => {
    const workflowState = satisfy(initialWorkflowState, "g_impl", "i-2");
    const record = recordEvent({ type: "state.advanced", step: "impl", guardId: "g_impl", artifactId: "i-2", workflowState }, now);
    expect(record.ledger).toEqual({ actor: "engine", type: "state.advanced", payload: { step: "impl", guardId: "g_impl", artifactId: "i-2" } });
    expect(record.patch).toEqual({ workflowState, stepsCompletedIncrement: 1 });
    expect(record.patch.workflowState).toBe(workflowState);
  });

  it("step.escalated: engine entry plus an escalation draft for a person to review", () => {
    expect(recordEvent({ type: "step.escalated", step: "run", guardId: "g_run", artifactId: "x-1", feedback: "Security: os.system forbidden" }, now)).toEqual({
      ledger: { actor: "engine", type: "step.escalated", payload: { step: "run", guardId: "g_run", artifactId: "x-1", feedback: "Security: os.system forbidden" } },
      patch: {},
      escalation: { artifactId: "x-1", stepName: "run", guardId: "g_run", feedback: "Security: os.system forbidden" },
    });
  });

  it("step.exhausted: engine entry with the attempt count; no run change", () => {
    expect(recordEvent({ type: "step.exhausted", step: "impl", attempts: 4 }, now)).toEqual({
      ledger: { actor: "engine", type: "step.exhausted", payload: { step: "impl", attempts: 4 } },
      patch: {},
    });
  });

  it("step.attempt_failed: engine entry with the step, its kind, the attempt and the reason; no run change", () => {
    expect(recordEvent({ type: "step.attempt_failed", step: "reflect", kind: "transition", attempt: 1, reason: "not an allowed answer" }, now)).toEqual({
      ledger: { actor: "engine", type: "step.attempt_failed", payload: { step: "reflect", kind: "transition", attempt: 1, reason: "not an allowed answer" } },
      patch: {},
    });
  });

  it("run.finished with success: succeeded, finishedAt now, result summary, no current step", () => {
    const result: WorkflowResult = { status: "success", artifacts: { g_test: test, g_impl: impl2 } };
    const summary = { status: "success", artifactIds: { g_test: "t-1", g_impl: "i-2" }, failedStep: null, reason: null, provenance: [], escalation: null };
    expect(recordEvent({ type: "run.finished", result }, now)).toEqual({
      ledger: { actor: "engine", type: "run.finished", payload: summary },
      patch: { status: "succeeded", result: summary, finishedAt: now, currentStep: null },
    });
  });

  it("run.finished with failure: failed, with the failed step kept as current", () => {
    const result: WorkflowResult = {
      status: "failed",
      artifacts: { g_test: test },
      failedStep: "impl",
      reason: 'Step "impl" failed after 2 attempts (retry budget exhausted)',
      provenance: [
        { artifact: impl1, feedback: "f1" },
        { artifact: impl2, feedback: "f2" },
      ],
    };
    const record = recordEvent({ type: "run.finished", result }, now);
    expect(record.patch.status).toBe("failed");
    expect(record.patch.finishedAt).toBe(now);
    expect(record.patch.currentStep).toBe("impl");
    expect(record.patch.result).toEqual(summarizeResult(result));
    expect(record.escalation).toBeUndefined();
  });

  it("run.finished with escalation: escalated, finishedAt now, summary with the escalation", () => {
    const result: WorkflowResult = {
      status: "escalation",
      artifacts: {},
      failedStep: "run",
      escalationArtifact: impl1,
      escalationFeedback: "forbidden",
    };
    const record = recordEvent({ type: "run.finished", result }, now);
    expect(record.patch).toEqual({ status: "escalated", result: summarizeResult(result), finishedAt: now, currentStep: "run" });
    expect(record.ledger.payload).toEqual({ ...summarizeResult(result) });
    // The escalation itself was opened by step.escalated; run.finished must not open a second one.
    expect(record.escalation).toBeUndefined();
  });

  it("never puts artifact contents into the ledger", () => {
    const result: WorkflowResult = { status: "failed", artifacts: { g_test: test }, failedStep: "impl", reason: "r", provenance: [{ artifact: impl1, feedback: "f" }] };
    const serialized = JSON.stringify(recordEvent({ type: "run.finished", result }, now));
    expect(serialized).not.toContain(test.content);
    expect(serialized).not.toContain(impl1.content);
  });
});

describe("summarizeResult", () => {
  it("keeps ids, not contents, for success", () => {
    const summary = summarizeResult({ status: "success", artifacts: { g_test: test, g_impl: impl2 } });
    expect(summary).toEqual({ status: "success", artifactIds: { g_test: "t-1", g_impl: "i-2" }, failedStep: null, reason: null, provenance: [], escalation: null });
  });

  it("maps failure provenance to artifact ids, null for a precondition failure", () => {
    expect(
      summarizeResult({
        status: "failed",
        artifacts: {},
        failedStep: "impl",
        reason: "Precondition not met",
        provenance: [{ artifact: null, feedback: "Precondition not met" }],
      }),
    ).toEqual({
      status: "failed",
      artifactIds: {},
      failedStep: "impl",
      reason: "Precondition not met",
      provenance: [{ artifactId: null, feedback: "Precondition not met" }],
      escalation: null,
    });
    expect(
      summarizeResult({
        status: "failed",
        artifacts: { g_test: test },
        failedStep: "impl",
        reason: "r",
        provenance: [
          { artifact: impl1, feedback: "f1" },
          { artifact: impl2, feedback: "f2" },
        ],
      }).provenance,
    ).toEqual([
      { artifactId: "i-1", feedback: "f1" },
      { artifactId: "i-2", feedback: "f2" },
    ]);
  });

  it("records the escalation artifact id and feedback, with the feedback as reason", () => {
    expect(summarizeResult({ status: "escalation", artifacts: { g_test: test }, failedStep: "run", escalationArtifact: impl1, escalationFeedback: "forbidden" })).toEqual({
      status: "escalation",
      artifactIds: { g_test: "t-1" },
      failedStep: "run",
      reason: "forbidden",
      provenance: [],
      escalation: { artifactId: "i-1", feedback: "forbidden" },
    });
  });

  it("is JSON-safe and round-trips unchanged", () => {
    const summary = summarizeResult({ status: "escalation", artifacts: { g_test: test }, failedStep: "run", escalationArtifact: impl1, escalationFeedback: "forbidden" });
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
  });
});
