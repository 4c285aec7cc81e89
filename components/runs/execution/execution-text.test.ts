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
    expect(edge({ primitive: "report", phase: "response", kind: "timeout", callId: "c2" }).text).toBe("timeout reported for call c2");
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
