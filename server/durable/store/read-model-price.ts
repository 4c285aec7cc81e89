import type { SqlClient } from "../../persistence/sql/sql-client";
import { priceFor, type ModelPrice } from "../../usage/call-cost";

/** The price table's entry for the first of `names` it lists: one indexed read, made only for a call that reported usage. */
export async function readModelPrice(sql: SqlClient, names: readonly string[]): Promise<ModelPrice | null> {
  if (names.length === 0) return null;
  const rows = await sql.query<{ model: string; inputUsdPerMillion: unknown; outputUsdPerMillion: unknown }>(
    `SELECT "model", "inputUsdPerMillion", "outputUsdPerMillion" FROM "ModelPrice" WHERE "model" IN (${names.map(() => "?").join(", ")})`,
    [...names],
  );
  return priceFor(
    rows.map((row) => ({ model: row.model, inputUsdPerMillion: Number(row.inputUsdPerMillion), outputUsdPerMillion: Number(row.outputUsdPerMillion) })),
    names,
  );
}
