import { describe, expect, it } from "vitest";
import { describeEdge, outcomeTone, shownOf, waitingOn } from "./execution-text";

const edge = (fields: Partial<Parameters<typeof describeEdge>[0]>) => describeEdge({ primitive: "enqueue", phase: "request", kind: null, runId: "me", fromRunId: null, callId: null, direction: "in", ...fields });

describe("the run page's words for waits, turns and execution edges", () => {
  it("names who answers each kind of waiting tool", () => {
    expect([waitingOn("person"), waitingOn("workflow"), waitingOn("external"), waitingOn("other")]).toEqual(["a person's answer", "a sub-run", "another system's report", "other"]);
  });

  it("says when a list shows only the newest rows", () => {
    expect(shownOf(10, 10, "turns")).toBe("");
    expect(shownOf(100, 250, "turns")).toBe("the newest 100 of 250 turns");
  });

  it("describes every primitive from this run's side, with the run it links to", () => {
    expect(edge({ kind: "start" })).toEqual({ text: "start message enqueued", otherRunId: null });
    expect(edge({ primitive: "report", phase: "response", kind: "report", callId: "c1" })).toEqual({ text: "result reported for call c1", otherRunId: null });
    expect(edge({ primitive: "report", phase: "response", kind: "report", callId: "c1", by: "ops@example.com", tool: "lookup" }).text).toBe("result reported by ops@example.com for call c1 (lookup)");
    expect(edge({ primitive: "report", phase: "response", kind: "report", callId: "c2", by: "watchdog" }).text).toBe("timeout reported for call c2");
    expect(edge({ primitive: "report", phase: "response", kind: "timeout" }).text).toBe("timeout reported");
    expect(edge({ primitive: "report", phase: "response", kind: "report", callId: "c4", fromRunId: "child" })).toEqual({ text: "sub-run's result reported for call c4", otherRunId: "child" });
    // Messages between runs: a sub-run's start (and a cancel) sent by its parent.
    expect(edge({ kind: "start", runId: "child", fromRunId: "me", callId: "c4", direction: "out" })).toEqual({ text: "start message sent to sub-run for call c4", otherRunId: "child" });
    expect(edge({ kind: "start", fromRunId: "parent", callId: "c4" })).toEqual({ text: "start message enqueued by run for call c4", otherRunId: "parent" });
    expect(edge({ primitive: "join", phase: "response", runId: "parent", fromRunId: "me", direction: "out" })).toEqual({ text: "result joined the parent", otherRunId: "parent" });
    expect(edge({ primitive: "tool_call", kind: "person", callId: "c3" }).text).toBe("waits for a person's answer for call c3");
    // A join: the parent sees the sub-run it started and, later, the sub-run's result; the child sees its parent.
    expect(edge({ primitive: "join", runId: "child", fromRunId: "me", direction: "out", callId: "c4" })).toEqual({ text: "started sub-run for call c4", otherRunId: "child" });
    expect(edge({ primitive: "join", phase: "response", fromRunId: "child", callId: "c4" })).toEqual({ text: "sub-run's result joined for call c4", otherRunId: "child" });
    expect(edge({ primitive: "join", fromRunId: "parent", callId: "c4" })).toEqual({ text: "started by parent for call c4", otherRunId: "parent" });
  });

  it("colours outcomes: succeeded good, lost and failed bad, suspended and deferred waiting", () => {
    expect(["succeeded", "failed", "lost", "suspended", "deferred", "cancelled", "new"].map(outcomeTone)).toEqual(["good", "bad", "bad", "wait", "wait", "neutral", "neutral"]);
  });
});
