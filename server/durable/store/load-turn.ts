import type { StoredArtifact } from "../../engine";
import type { SqlClient } from "../../persistence/sql/sql-client";
import type { TurnSnapshot } from "../types";
import { artifactsJson, snapshotColumns, snapshotOf, storedArtifacts, type SnapshotRow } from "./snapshot";

/** The run, its pinned definition and its keyed ledger entries, for a turn to replay: one statement. */
export async function loadTurn(sql: SqlClient, runId: string): Promise<TurnSnapshot> {
  const d = sql.dialect;
  const [run] = await sql.query<SnapshotRow>(`SELECT ${snapshotColumns(d, "r")} FROM "Run" r JOIN "WorkflowVersion" v ON v."id" = r."workflowVersionId" WHERE r."id" = ?`, [runId]);
  if (!run) throw new Error(`Run ${runId} has no workflow version to execute`);
  return snapshotOf(d, runId, run);
}

/** One artifact of a run with its dependencies, in one statement. */
export async function getArtifact(sql: SqlClient, runId: string, artifactId: string): Promise<StoredArtifact | undefined> {
  const d = sql.dialect;
  const [row] = await sql.query<{ artifacts: unknown }>(`SELECT ${artifactsJson(d, `a."id" = ? AND a."runId" = ?`)} AS "artifacts"`, [artifactId, runId]);
  return row ? storedArtifacts(d, row.artifacts)[0] : undefined;
}
