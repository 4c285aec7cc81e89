import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { CallFailedError, MemoryCallLedger, failed, fatal, type EngineEvent, type RunObserver } from "../engine";
import { TurnTrace } from "./turn-trace";

/** A TurnTrace on the real SDK, exporting to memory, with a clock the test moves. */
function traced(options: { replayed?: readonly string[] } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let now = 1_000_000;
  const runSpans: string[] = [];
  const trace = new TurnTrace(
    { runId: "run-1", epoch: 2, kind: "resume", workerId: "w1", retryCount: 0 },
    {
      tracer: provider.getTracer("test"),
      sampled: true,
      now: () => now,
      runCreatedAt: async () => 10,
      emitRunSpan: (name) => runSpans.push(name),
    },
  );
  const recorded: string[] = [];
  const inner: RunObserver = { record: async (_event, key) => void recorded.push(key ?? "") };
  const replayed = new Set(options.replayed ?? []);
  const observer = trace.observer(inner, (key) => replayed.has(key));
  const calls = trace.calls(new MemoryCallLedger("run-1"));
  const tick = (ms = 10) => {
    now += ms;
  };
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().filter((span) => span.name === name);
  const parentName = (span: ReadableSpan) => spans().find((candidate) => candidate.spanContext().spanId === span.parentSpanContext?.spanId)?.name;
  const record = (event: EngineEvent, key: string) => observer.record(event, key);
  return { trace, observer, calls, tick, spans, named, parentName, record, recorded, runSpans };
}

describe("a turn's spans, from the events and calls it reports", () => {
  it("an llm step whose first model call fails for good and whose second attempt completes", async () => {
    const t = traced();
    await t.record({ type: "step.started", step: "summarize", kind: "llm" }, "summarize/started");
    t.tick();
    const first = await t.calls.call("summarize/attempt-1/model", { actor: "assistant", policy: "model", payload: { model: "m1" } }, async () => {
      t.tick(100);
      throw new CallFailedError("RATE_LIMITED", "429 after 3 tries");
    });
    expect(first.ok).toBe(false);
    await t.record({ type: "step.attempt_failed", step: "summarize", kind: "llm", attempt: 1, reason: "Step could not generate" }, "summarize/attempt-1/failed");
    t.tick();
    await t.calls.call("summarize/attempt-2/model", { actor: "assistant", policy: "model", payload: { model: "m1", temperature: 0.2 } }, async () => {
      t.tick(50);
      return { content: "ok", model: "m1-2026", usage: { promptTokens: 12, completionTokens: 3 }, finishReason: "stop", attempts: 1 };
    });
    await t.record({ type: "step.completed", step: "summarize", kind: "llm", output: "ok" }, "summarize/completed");
    await t.trace.end("suspended");

    const [step] = t.named("dualstate.step summarize");
    expect(step!.attributes).toMatchObject({ "dualstate.step.kind": "llm", "dualstate.step.outcome": "completed" });
    const attempts = t.named("dualstate.attempt summarize");
    expect(attempts.map((span) => [span.attributes["dualstate.attempt"], span.attributes["dualstate.attempt.outcome"], span.status.code])).toEqual([
      [1, "failed", 2],
      [2, "passed", 0],
    ]);
    const chats = t.named("chat m1");
    expect(chats.map((span) => t.parentName(span))).toEqual(["dualstate.attempt summarize", "dualstate.attempt summarize"]);
    expect(chats[0]!.attributes).toMatchObject({ "error.type": "RATE_LIMITED" });
    expect(chats[0]!.status.code).toBe(2);
    expect(chats[1]!.attributes).toMatchObject({ "gen_ai.request.temperature": 0.2, "gen_ai.response.model": "m1-2026", "gen_ai.usage.input_tokens": 12, "gen_ai.usage.output_tokens": 3 });
    // Attempt 2 starts where attempt 1 ended, not at the step's start.
    expect(attempts[1]!.startTime).toEqual(attempts[0]!.endTime);
    // A turn that suspends the run does not end it: no run span yet.
    expect(t.runSpans).toEqual([]);
  });

  it("an llm judge's model call sits inside its guard span; a tool call is an execute_tool span", async () => {
    const t = traced();
    await t.record({ type: "step.started", step: "implement", guardId: "g_impl", dependencyIds: {} }, "implement/started");
    await t.calls.call("implement/attempt-1/lookup", { actor: "assistant", policy: "search_docs", payload: {} }, async () => ({ hits: 2 }));
    await t.calls.call("implement/attempt-1/replay", { actor: "assistant", policy: "replay", payload: {} }, async () => ({ content: "recorded" }));
    await t.calls.call("implement/attempt-1/model", { actor: "assistant", policy: "model", payload: { model: "coder" } }, async () => ({ content: "x" }));
    t.tick(5);
    await t.calls.call("implement/attempt-1/guard/judge", { actor: "judge", policy: "model", payload: { model: "judge-model" } }, async () => ({ content: "FAIL" }));
    t.tick(5);
    await t.record({ type: "generator.completed", step: "implement", attempt: 1, artifactId: "a1", contentHash: "h", metadata: { model: "coder" } }, "implement/attempt-1/generated");
    await t.record({ type: "guard.completed", step: "implement", attempt: 1, artifactId: "a1", result: failed("the judge says no") }, "implement/attempt-1/verdict");
    await t.record({ type: "guard.completed", step: "implement", attempt: 2, artifactId: "a2", result: fatal("rm -rf") }, "implement/attempt-2/verdict");
    await t.record({ type: "step.escalated", step: "implement", guardId: "g_impl", artifactId: "a2", feedback: "rm -rf" }, "implement/attempt-2/decision/escalated");
    await t.trace.end("suspended");

    expect(t.parentName(t.named("execute_tool search_docs")[0]!)).toBe("dualstate.attempt implement");
    expect(t.parentName(t.named("dualstate.replay")[0]!)).toBe("dualstate.attempt implement");
    expect(t.named("dualstate.replay")[0]!.attributes["gen_ai.operation.name"]).toBeUndefined();
    expect(t.named("execute_tool search_docs")[0]!.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search_docs" });
    const guards = t.named("dualstate.guard g_impl");
    expect(guards.map((span) => [span.attributes["dualstate.guard.verdict"], t.parentName(span)])).toEqual([
      ["failed", "dualstate.attempt implement"],
      ["fatal", "dualstate.attempt implement"],
    ]);
    const judge = t.named("chat judge-model")[0]!;
    expect(judge.parentSpanContext?.spanId).toBe(guards[0]!.spanContext().spanId);
    // The guard started when the generator's call ended.
    expect(guards[0]!.startTime).toEqual(t.named("chat coder")[0]!.endTime);
    expect(t.named("dualstate.step implement")[0]!.attributes["dualstate.step.outcome"]).toBe("escalated");
  });

  it("replayed events and calls make no spans; a step an earlier turn started is marked resumed; an ending turn emits the run span", async () => {
    const t = traced({ replayed: ["implement/started", "implement/attempt-1/verdict"] });
    await t.record({ type: "step.started", step: "implement", guardId: "g", dependencyIds: {} }, "implement/started");
    await t.record({ type: "guard.completed", step: "implement", attempt: 1, artifactId: "a1", result: fatal("x") }, "implement/attempt-1/verdict");
    // The ledger already holds this call's result (recorded once, then asked again): no second span.
    await t.calls.call("implement/attempt-1/model", { actor: "assistant", policy: "model", payload: { model: "m" } }, async () => ({ content: "c" }));
    await t.calls.call("implement/attempt-1/model", { actor: "assistant", policy: "model", payload: { model: "m" } }, async () => ({ content: "c" }));
    await t.record({ type: "state.advanced", step: "implement", guardId: "g", artifactId: "a1", workflowState: { guards: {}, artifactIds: {} } as never }, "implement/advanced");
    await t.record({ type: "run.finished", result: { status: "success", artifacts: {} } }, "run.finished");
    await t.trace.end("succeeded");

    expect(t.recorded).toEqual(["implement/started", "implement/attempt-1/verdict", "implement/advanced", "run.finished"]);
    expect(t.named("dualstate.guard g")).toHaveLength(0);
    expect(t.named("chat m")).toHaveLength(1);
    const [step] = t.named("dualstate.step implement");
    expect(step!.attributes).toMatchObject({ "dualstate.step.resumed": true, "dualstate.step.outcome": "passed" });
    const [turn] = t.named("dualstate.turn resume");
    expect(turn!.attributes).toMatchObject({ "dualstate.turn.outcome": "succeeded", "dualstate.run.status": "success", "dualstate.turn.epoch": 2 });
    expect(t.runSpans).toEqual(["invoke_workflow run"]);
  });
});
