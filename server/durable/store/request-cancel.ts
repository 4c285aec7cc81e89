import type { SqlClient } from "../../persistence/sql/sql-client";
import { isTerminalRunStatus, type RunStatus } from "../lifecycle";
import { insertMessage } from "./insert-message";

export interface CancelRequest {
  readonly reason: string;
  /** Who asked (an email), recorded in the run's ledger as `run.cancelled`. */
  readonly by?: string;
}

export type CancelOutcome = { readonly queued: true } | { readonly queued: false; readonly status: RunStatus | null };

/**
 * Queues a cancel message (003: the inbox is the source of truth); the turn that claims it ends
 * the run, taking it over with a new epoch if a turn still runs it. Refused (status null: no such
 * run) for a run that does not exist or already ended.
 */
export async function requestCancel(sql: SqlClient, runId: string, request: CancelRequest): Promise<CancelOutcome> {
  return sql.transaction(async (tx): Promise<CancelOutcome> => {
    const [run] = await tx.query<{ status: RunStatus }>(`SELECT "status" FROM "Run" WHERE "id" = ?`, [runId]);
    if (!run) return { queued: false, status: null };
    if (isTerminalRunStatus(run.status)) return { queued: false, status: run.status };
    await insertMessage(tx, sql.dialect, runId, "cancel", { reason: request.reason, ...(request.by ? { by: request.by } : {}) });
    return { queued: true };
  });
}

/** The runs among `runIds` that have a cancel message waiting (a running turn must be stopped for it). */
export async function runsWithPendingCancel(sql: SqlClient, runIds: readonly string[]): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const rows = await sql.query<{ runId: string }>(
    `SELECT DISTINCT "runId" FROM "InboxMessage" WHERE "kind" = 'cancel' AND "status" IN ('pending', 'deferred') AND "runId" IN (${runIds.map(() => "?").join(", ")})`,
    [...runIds],
  );
  return new Set(rows.map((row) => row.runId));
}
