import type { SqlClient } from "../../persistence/sql/sql-client";
import type { ClaimedTurn } from "../types";
import { heldBy, heldByParams } from "./head-update";

/**
 * Extends the turn's lease to `leaseMs` after the database's now; false when the turn no longer
 * holds a valid lease (taken over, or already expired: an expired lease cannot be revived).
 */
export async function renewLease(sql: SqlClient, turn: ClaimedTurn, leaseMs: number): Promise<boolean> {
  const d = sql.dialect;
  const changed = await sql.execute(`UPDATE "Run" SET "leaseExpiresAt" = ${d.later.sql} WHERE ${heldBy(d)}`, [d.later.param(leaseMs), ...heldByParams(turn)]);
  return changed === 1;
}
