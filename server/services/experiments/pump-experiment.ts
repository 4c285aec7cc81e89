import type { DurableStore } from "@/server/durable/durable-store";
import { readCaseChecks } from "@/server/experiments/case-checks";
import { settleSamples } from "./settle-samples";
import { startSampleRun } from "./start-sample-run";

export interface PumpReport {
  /** Samples whose outcome this pump copied from their ended run. */
  readonly settled: number;
  /** Runs started. */
  readonly started: number;
  readonly status: string | null;
}

type ExperimentRow = { status: string; concurrency: number; workflowVersionId: string; generatorOverride: unknown; archivedAt: unknown; createdBy: string };
type PendingRow = { id: string; sample: number; key: string; specification: string; variables: unknown; checks: unknown };

/**
 * Moves an experiment on: copies the outcomes of samples whose runs ended, starts runs for samples
 * without one while fewer than `concurrency` are in flight, and completes the experiment once
 * every sample has an outcome. Safe to call from any number of processes at once: the experiment's
 * row is locked (written first) for the transaction, so the in-flight count it reads stays true
 * and two pumps never exceed the limit; each sample's run is claimed in the transaction that
 * creates it (start-sample-run.ts). Called on creation, by a worker after a turn of an
 * experiment's run ends or suspends, and on each watchdog tick (which makes up for a worker that
 * died between the two).
 */
export async function pumpExperiment(store: DurableStore, experimentId: string): Promise<PumpReport> {
  const sql = store.sql;
  const d = sql.dialect;
  const outcome = await sql.transaction(async (tx) => {
    // The lock: PostgreSQL holds the row until commit; SQLite's BEGIN IMMEDIATE serialises writers anyway.
    const locked = await tx.execute(`UPDATE "Experiment" SET "status" = "status" WHERE "id" = ?`, [experimentId]);
    if (locked === 0) return { settled: 0, started: 0, status: null };
    // In the same commit: a cancelled or failed experiment's runs are still scored as they end.
    const settled = await settleSamples(tx, experimentId);
    const [experiment] = await tx.query<ExperimentRow>(
      `SELECT CAST(x."status" AS TEXT) AS "status", x."concurrency", x."workflowVersionId", x."generatorOverride", x."createdBy", w."archivedAt"
         FROM "Experiment" x JOIN "WorkflowVersion" v ON v."id" = x."workflowVersionId" JOIN "Workflow" w ON w."id" = v."workflowId" WHERE x."id" = ?`,
      [experimentId],
    );
    if (!experiment || (experiment.status !== "queued" && experiment.status !== "running")) return { settled, started: 0, status: experiment?.status ?? null };
    if (experiment.archivedAt) {
      // Nothing more can start; what runs finishes and is scored.
      await tx.execute(`UPDATE "Experiment" SET "status" = 'failed', "finishedAt" = ${d.now} WHERE "id" = ?`, [experimentId]);
      return { settled, started: 0, status: "failed" };
    }
    const [counts] = await tx.query<{ inFlight: unknown; open: unknown }>(
      `SELECT COALESCE(SUM(CASE WHEN "runId" IS NOT NULL AND "outcome" IS NULL THEN 1 ELSE 0 END), 0) AS "inFlight", COALESCE(SUM(CASE WHEN "outcome" IS NULL THEN 1 ELSE 0 END), 0) AS "open"
         FROM "ExperimentSample" WHERE "experimentId" = ?`,
      [experimentId],
    );
    const open = Number(counts?.open ?? 0);
    if (open === 0) {
      await tx.execute(`UPDATE "Experiment" SET "status" = 'completed', "startedAt" = COALESCE("startedAt", ${d.now}), "finishedAt" = ${d.now} WHERE "id" = ?`, [experimentId]);
      return { settled, started: 0, status: "completed" };
    }
    const free = experiment.concurrency - Number(counts?.inFlight ?? 0);
    let started = 0;
    if (free > 0) {
      const pending = await tx.query<PendingRow>(
        `SELECT s."id", s."sample", c."key", c."specification", c."variables", c."checks"
           FROM "ExperimentSample" s JOIN "DatasetCase" c ON c."id" = s."caseId"
          WHERE s."experimentId" = ? AND s."runId" IS NULL ORDER BY c."position", s."sample" LIMIT ?`,
        [experimentId, free],
      );
      const generatorOverride = d.readJson(experiment.generatorOverride) ?? undefined;
      for (const row of pending) {
        const checks = readCaseChecks(d.readJson(row.checks));
        const runId = await startSampleRun(tx, d, {
          sampleId: row.id,
          sample: Number(row.sample),
          experimentId,
          workflowVersionId: experiment.workflowVersionId,
          caseKey: row.key,
          specification: row.specification,
          variables: (d.readJson(row.variables) as Record<string, boolean | number | string> | null) ?? {},
          // Checked when the experiment was created; a case cannot change since (versions are immutable).
          checks: checks.ok ? checks.checks : {},
          generatorOverride,
          startedBy: experiment.createdBy,
        });
        if (runId) started++;
      }
    }
    if (started > 0 && experiment.status === "queued") {
      await tx.execute(`UPDATE "Experiment" SET "status" = 'running', "startedAt" = COALESCE("startedAt", ${d.now}) WHERE "id" = ?`, [experimentId]);
      return { settled, started, status: "running" };
    }
    return { settled, started, status: experiment.status };
  });
  if (outcome.started > 0) store.onMessage?.();
  return outcome;
}
