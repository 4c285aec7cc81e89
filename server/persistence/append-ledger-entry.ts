import { randomUUID } from "node:crypto";
import type { Db } from "./db";
import { asJson } from "./mappers";

/** A client or an interactive transaction: appends run inside the caller's transaction when given one. */
export type DbClient = Pick<Db, "ledgerEntry">;

export interface NewLedgerEntry {
  readonly actor: string;
  readonly type: string;
  readonly payload: unknown;
  readonly callKey?: string | null;
}

/**
 * Appends one entry with the run's next sequence number. The (runId, seq) unique index turns a
 * concurrent append into an error instead of a gap or a duplicate.
 */
export async function appendLedgerEntry(db: DbClient, runId: string, entry: NewLedgerEntry): Promise<number> {
  const last = await db.ledgerEntry.findFirst({ where: { runId }, orderBy: { seq: "desc" }, select: { seq: true } });
  const seq = (last?.seq ?? 0) + 1;
  await db.ledgerEntry.create({
    data: { id: randomUUID(), runId, seq, actor: entry.actor, type: entry.type, payload: asJson(entry.payload), callKey: entry.callKey ?? null },
    select: { id: true },
  });
  return seq;
}
