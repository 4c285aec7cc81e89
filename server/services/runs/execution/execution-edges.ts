import type { Db } from "@/server/persistence/db";

/** Every inbox message and waiting call writes an edge: a long run's timeline shows the newest. */
export const EDGE_LIMIT = 200;

export interface RunExecutionEdge {
  readonly id: string;
  /** enqueue, report, join or tool_call. */
  readonly primitive: string;
  /** request or response. */
  readonly phase: string;
  /** The inbox message kind or the tool kind. */
  readonly kind: string | null;
  /** The run whose inbox or turn the edge enters. */
  readonly runId: string;
  /** For a join: the other run. */
  readonly fromRunId: string | null;
  readonly callId: string | null;
  /** in: the edge enters this run; out: it enters another run from this one (a join to a sub-run or a parent). */
  readonly direction: "in" | "out";
  /** From the edge's detail: the tool of a call or a report, and who reported (a person, a system, "watchdog"). */
  readonly tool: string | null;
  readonly by: string | null;
  readonly createdAt: Date;
}

export interface RunExecutionEdges {
  /** The newest EDGE_LIMIT edges at most, oldest first. */
  readonly items: readonly RunExecutionEdge[];
  readonly total: number;
}

const MAX_DETAIL_CHARS = 200;

function detailText(detail: unknown, key: string): string | null {
  const value = detail !== null && typeof detail === "object" ? (detail as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value.slice(0, MAX_DETAIL_CHARS) : null;
}

/** The edges that enter the run, and those it sends into other runs (003 3.1.1). */
export async function listExecutionEdges(db: Db, runId: string, limit = EDGE_LIMIT): Promise<RunExecutionEdges> {
  const where = { OR: [{ runId }, { fromRunId: runId }] };
  const [rows, total] = await Promise.all([
    db.executionEdge.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      select: { id: true, primitive: true, phase: true, kind: true, runId: true, fromRunId: true, callId: true, detail: true, createdAt: true },
    }),
    db.executionEdge.count({ where }),
  ]);
  return {
    items: rows.reverse().map(({ detail, ...row }) => ({ ...row, direction: row.runId === runId ? "in" : "out", tool: detailText(detail, "tool"), by: detailText(detail, "by") })),
    total,
  };
}
