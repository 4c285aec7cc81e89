import type { SqlDialect, SqlExecutor } from "../../persistence/sql/sql-client";
import { timeOrderedId } from "../ids";
import type { InboxKind } from "../lifecycle";
import type { TurnRecordInput } from "../types";

export interface TurnIdentity {
  readonly runId: string;
  readonly epoch: number;
  readonly messageId: string | null;
  readonly kind: InboxKind | null;
  readonly workerId: string | null;
}

/** The reason as stored: bounded, since it may quote a model's or a tool's error. */
export function recordReason(reason: string | null | undefined): string | null {
  return reason ? reason.slice(0, 2000) : null;
}

/**
 * Writes the turn's one record (003 section 4: every turn delivers, whatever its ending). Unique
 * per (run, epoch): whoever writes first (the turn itself, or the watchdog that found its lease
 * expired) wins, and the other write changes nothing.
 */
export async function insertTurnRecord(tx: SqlExecutor, d: SqlDialect, turn: TurnIdentity, record: TurnRecordInput): Promise<void> {
  await tx.execute(
    `INSERT INTO "TurnRecord" ("id", "runId", "epoch", "messageId", "kind", "workerId", "outcome", "reason", "detail", "endedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ${d.now}) ON CONFLICT DO NOTHING`,
    [timeOrderedId(), turn.runId, turn.epoch, turn.messageId, turn.kind, turn.workerId, record.outcome, recordReason(record.reason), record.detail === undefined ? null : d.json(record.detail)],
  );
}
