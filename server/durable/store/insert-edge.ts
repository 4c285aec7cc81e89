import type { SqlDialect, SqlExecutor } from "../../persistence/sql/sql-client";
import { timeOrderedId } from "../ids";
import type { EdgePhase, EdgePrimitive } from "../lifecycle";

export interface EdgeInput {
  readonly primitive: EdgePrimitive;
  readonly phase: EdgePhase;
  /** The inbox message's kind, or the tool's kind for a tool call. */
  readonly kind?: string | null;
  /** A join's other run. */
  readonly fromRunId?: string | null;
  /** The waiting tool call the edge belongs to. */
  readonly callId?: string | null;
  readonly detail?: unknown;
}

/** Records an execution edge of `runId` (003 section 3.1.1), in the transaction of what it records. */
export async function insertEdge(tx: SqlExecutor, d: SqlDialect, runId: string, edge: EdgeInput): Promise<void> {
  await tx.execute(`INSERT INTO "ExecutionEdge" ("id", "runId", "primitive", "phase", "kind", "fromRunId", "callId", "detail", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ${d.now})`, [
    timeOrderedId(),
    runId,
    edge.primitive,
    edge.phase,
    edge.kind ?? null,
    edge.fromRunId ?? null,
    edge.callId ?? null,
    edge.detail === undefined ? null : d.json(edge.detail),
  ]);
}
