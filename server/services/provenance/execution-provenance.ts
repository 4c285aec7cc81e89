import type { Db } from "@/server/persistence/db";
import { buildExecutionGraph, type ExecutionGraph } from "./execution-graph";

/** The provenance page draws at most this many tool calls, edges and sub-runs (the earliest). */
export const MAX_DRAWN_CALLS = 500;
export const MAX_DRAWN_EDGES = 2_000;
export const MAX_DRAWN_CHILDREN = 100;

const workflowName = { workflowVersion: { select: { workflow: { select: { name: true } } } } } as const;

/** A run's waiting calls, execution edges, parent and sub-runs, as graph parts next to its artifacts. */
export async function loadExecutionGraph(db: Db, run: { id: string; parentRunId: string | null }, artifacts: readonly { id: string; stepName: string; attempt: number }[]): Promise<ExecutionGraph> {
  const [calls, edges, parent, children] = await Promise.all([
    db.toolWait.findMany({
      where: { runId: run.id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: MAX_DRAWN_CALLS,
      select: { id: true, stepName: true, attempt: true, tool: true, kind: true, status: true, reportedBy: true, childRunId: true, createdAt: true },
    }),
    db.executionEdge.findMany({
      where: { OR: [{ runId: run.id, primitive: { in: ["tool_call", "report", "join"] } }, { fromRunId: run.id, primitive: "join" }] },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: MAX_DRAWN_EDGES,
      select: { id: true, runId: true, primitive: true, phase: true, kind: true, fromRunId: true, callId: true },
    }),
    run.parentRunId ? db.run.findUnique({ where: { id: run.parentRunId }, select: { id: true, status: true, ...workflowName } }) : null,
    db.run.findMany({ where: { parentRunId: run.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: MAX_DRAWN_CHILDREN, select: { id: true, status: true, ...workflowName } }),
  ]);
  const linked = (row: { id: string; status: string; workflowVersion: { workflow: { name: string } } | null }) => ({ id: row.id, status: row.status, workflow: row.workflowVersion?.workflow.name ?? null });
  return buildExecutionGraph({
    runId: run.id,
    artifacts,
    calls,
    edges,
    parent: run.parentRunId ? (parent ? linked(parent) : { id: run.parentRunId, status: "unknown", workflow: null }) : null,
    children: children.map(linked),
  });
}
