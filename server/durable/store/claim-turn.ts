import { randomUUID } from "node:crypto";
import type { SqlClient, SqlValue } from "../../persistence/sql/sql-client";
import { CLAIMABLE_RUN_STATUSES, DUE_INBOX_STATUSES, TERMINAL_RUN_STATUSES, sqlList, type InboxKind } from "../lifecycle";
import type { ClaimedTurn } from "../types";
import { claimOnPostgres } from "./claim-postgres";
import { claimOnSqlite } from "./claim-sqlite";

/** A claim's candidate message, as both dialects read it. */
export type ClaimRow = { id: string; runId: string; kind: InboxKind; payload: unknown; retryCount: number; deferReason: string | null; epoch: number };

/** What both dialects need to claim: the due condition over message `m` and run `r`, and the new turn. */
export interface ClaimRequest {
  readonly due: string;
  readonly dueParams: readonly SqlValue[];
  readonly turnId: string;
  readonly workerId: string;
  readonly leaseMs: number;
}

/**
 * Claims the next due message (by next_retry_at, created_at, due by the database's clock) of a run
 * no one holds, and in the same statement or transaction moves the run's head to dispatched with a
 * new epoch, turn and lease (expiring `leaseMs` after the database's now). A cancel message is
 * claimable even while another turn holds the run: it takes the run over.
 */
export async function claimTurn(sql: SqlClient, workerId: string, leaseMs: number, onlyRunId?: string): Promise<ClaimedTurn | null> {
  const d = sql.dialect;
  const due =
    `m."status" IN ${sqlList(DUE_INBOX_STATUSES)} AND m."nextRetryAt" <= ${d.now} AND r."status" NOT IN ${sqlList(TERMINAL_RUN_STATUSES)}` +
    ` AND (r."status" IN ${sqlList(CLAIMABLE_RUN_STATUSES)} OR m."kind" = 'cancel')${onlyRunId === undefined ? "" : ` AND m."runId" = ?`}`;
  const claimSentAt = performance.now();
  const request: ClaimRequest = { due, dueParams: onlyRunId === undefined ? [] : [onlyRunId], turnId: randomUUID(), workerId, leaseMs };
  const turn = d.provider === "postgres" ? await claimOnPostgres(sql, request) : await claimOnSqlite(sql, request);
  return turn && { ...turn, claimSentAt };
}
