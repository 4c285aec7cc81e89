import type { DurableStore } from "@/server/durable/durable-store";
import type { ClaimedTurn, TurnSnapshot } from "@/server/durable/types";
import { CASE_LEDGER_KEY } from "@/server/experiments/case-checks";
import { PUMPED_PER_TICK } from "./experiment-limits";
import { pumpExperiment } from "./pump-experiment";

/** Turn outcomes after which an experiment's run may have freed its slot (ended, or waits for a person). */
const FREEING_OUTCOMES = new Set(["succeeded", "failed", "cancelled", "suspended"]);

/**
 * The worker's hook after a turn: when the turn's run belongs to an experiment and ended or
 * suspended, pump the experiment (copy the outcome, start the next sample). The snapshot the turn
 * read (the claim's on PostgreSQL, the turn's load on SQLite) names the experiment, so the hot path
 * reads nothing more; only a turn that stopped before loading one costs a lookup by primary key.
 */
export async function pumpAfterTurn(store: DurableStore, turn: ClaimedTurn, outcome: string, seenSnapshot?: TurnSnapshot): Promise<void> {
  if (!FREEING_OUTCOMES.has(outcome)) return;
  let experimentId: string | null;
  const snapshot = turn.snapshot ?? seenSnapshot;
  if (snapshot) {
    const entry = snapshot.keyed.get(CASE_LEDGER_KEY) as { experimentId?: unknown } | undefined;
    experimentId = typeof entry?.experimentId === "string" ? entry.experimentId : null;
  } else {
    const [run] = await store.sql.query<{ experimentId: string | null }>(`SELECT "experimentId" FROM "Run" WHERE "id" = ?`, [turn.runId]);
    experimentId = run?.experimentId ?? null;
  }
  if (experimentId) await pumpExperiment(store, experimentId);
}

/**
 * The watchdog tick's hook: pump the experiments still going (and cancelled ones whose runs have
 * not all been scored), oldest first, a bounded number per tick. This is what carries an
 * experiment on when the worker that ended one of its runs died before pumping.
 */
export async function pumpActiveExperiments(store: DurableStore): Promise<number> {
  const rows = await store.sql.query<{ id: string }>(
    `SELECT x."id" FROM "Experiment" x
      WHERE x."status" IN ('queued', 'running')
         OR (x."status" = 'cancelled' AND EXISTS (SELECT 1 FROM "ExperimentSample" s WHERE s."experimentId" = x."id" AND s."runId" IS NOT NULL AND s."outcome" IS NULL))
      ORDER BY x."createdAt" LIMIT ?`,
    [PUMPED_PER_TICK],
  );
  for (const row of rows) await pumpExperiment(store, row.id);
  return rows.length;
}
