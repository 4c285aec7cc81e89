import type { SqlDialect, SqlExecutor } from "../../persistence/sql/sql-client";
import { timeOrderedId } from "../ids";
import type { InboxKind } from "../lifecycle";
import { insertEdge, type EdgeInput } from "./insert-edge";

export interface MessageOptions {
  /** "done": recorded, but nothing for a turn to do (a report while others of the waiting set are still out). */
  readonly status?: "pending" | "done";
  /** What the message's execution edge adds: a join's other run, the call it reports. */
  readonly edge?: Pick<EdgeInput, "fromRunId" | "callId" | "detail">;
}

/**
 * Writes an inbox message, due now by the database's clock, and its execution edge (enqueue for
 * what asks a run to act, report for what answers its calls). On PostgreSQL the doorbell's NOTIFY
 * goes out in the same transaction, so it is delivered on commit (003: a wake-up only).
 */
export async function insertMessage(tx: SqlExecutor, d: SqlDialect, runId: string, kind: InboxKind, payload: unknown, options: MessageOptions = {}): Promise<void> {
  const status = options.status ?? "pending";
  if (d.provider === "postgres" && status === "pending") await tx.query(`SELECT pg_notify('dualstate_inbox', ?)`, [runId]);
  await tx.execute(
    `INSERT INTO "InboxMessage" ("id", "runId", "kind", "status", "payload", "nextRetryAt", "createdAt", "doneAt") VALUES (?, ?, ?, ?, ?, ${d.now}, ${d.now}, ${status === "done" ? d.now : "NULL"})`,
    [timeOrderedId(), runId, kind, status, d.json(payload)],
  );
  const answers = kind === "report" || kind === "timeout";
  await insertEdge(tx, d, runId, { primitive: answers ? "report" : "enqueue", phase: answers ? "response" : "request", kind, ...options.edge });
}
