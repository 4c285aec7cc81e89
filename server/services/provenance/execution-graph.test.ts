import { describe, expect, it } from "vitest";
import { buildExecutionGraph, callNodeId, runNodeId, type ExecutionCall } from "./execution-graph";

const at = new Date("2026-11-26T06:00:00.000Z");
const call = (id: string, attempt: number, fields: Partial<ExecutionCall> = {}): ExecutionCall => ({ id, stepName: "plan", attempt, tool: "ask", kind: "person", status: "waiting", reportedBy: null, childRunId: null, createdAt: at, ...fields });
const edge = (id: string, fields: { runId: string; primitive: string; phase: string; kind?: string | null; fromRunId?: string | null; callId?: string | null }) => ({ id, kind: null, fromRunId: null, callId: null, ...fields });
const lines = (graph: ReturnType<typeof buildExecutionGraph>) => graph.edges.map((e) => `${e.kind}/${e.phase}:${e.source}->${e.target}`);

describe("the execution graph next to the artifact DAG", () => {
  it("links a sub-run's result back to the call that waited for it, and a run's own result to its parent", () => {
    const graph = buildExecutionGraph({
      runId: "me",
      artifacts: [
        { id: "a1", stepName: "plan", attempt: 1 },
        { id: "a2", stepName: "plan", attempt: 2 },
      ],
      calls: [call("c1", 1, { kind: "workflow", childRunId: "kid", status: "reported", reportedBy: "run kid" })],
      edges: [
        edge("1", { runId: "me", primitive: "join", phase: "request", fromRunId: "mom" }),
        edge("2", { runId: "me", primitive: "tool_call", phase: "request", kind: "workflow", callId: "c1" }),
        edge("3", { runId: "kid", primitive: "join", phase: "request", fromRunId: "me", callId: "c1" }),
        edge("4", { runId: "me", primitive: "join", phase: "response", fromRunId: "kid", callId: "c1" }),
        edge("5", { runId: "me", primitive: "report", phase: "response", kind: "report", callId: "c1" }),
        edge("6", { runId: "mom", primitive: "join", phase: "response", fromRunId: "me", callId: "mc" }),
        // Enqueue edges are the run page's timeline, not the provenance graph's.
        edge("7", { runId: "me", primitive: "enqueue", phase: "request", kind: "start" }),
      ],
      parent: { id: "mom", status: "suspended", workflow: "release" },
      children: [{ id: "kid", status: "succeeded", workflow: "changelog" }],
    });
    expect(graph.nodes.map((node) => node.id)).toEqual([callNodeId("c1"), runNodeId("mom"), runNodeId("kid")]);
    expect(lines(graph)).toEqual([
      `join/request:${runNodeId("mom")}->a1`,
      `tool_call/request:a1->${callNodeId("c1")}`,
      `join/request:${callNodeId("c1")}->${runNodeId("kid")}`,
      `join/response:${runNodeId("kid")}->${callNodeId("c1")}`,
      `report/response:${callNodeId("c1")}->a1`,
      `join/response:a2->${runNodeId("mom")}`,
    ]);
  });

  it("draws a run named only by an edge, and leaves out edges to calls it does not know", () => {
    const graph = buildExecutionGraph({
      runId: "me",
      artifacts: [],
      calls: [],
      edges: [edge("1", { runId: "other", primitive: "join", phase: "request", fromRunId: "me", callId: "gone" }), edge("2", { runId: "me", primitive: "report", phase: "response", callId: "gone" })],
      parent: null,
      children: [],
    });
    expect(graph.nodes).toEqual([{ id: runNodeId("other"), kind: "run", runId: "other", relation: "child", status: null, workflow: null }]);
    expect(graph.edges).toEqual([]);
  });
});
