import { initialWorkflowState } from "@/server/engine";
import { timeOrderedId } from "@/server/durable/ids";
import { insertLedger } from "@/server/durable/store/insert-ledger";
import { insertMessage } from "@/server/durable/store/insert-message";
import { CASE_LEDGER_KEY, type CaseChecks } from "@/server/experiments/case-checks";
import type { SqlDialect, SqlExecutor } from "@/server/persistence/sql/sql-client";

export interface SampleToStart {
  readonly sampleId: string;
  readonly sample: number;
  readonly experimentId: string;
  readonly workflowVersionId: string;
  readonly caseKey: string;
  readonly specification: string;
  readonly variables: Readonly<Record<string, boolean | number | string>>;
  readonly checks: CaseChecks;
  readonly generatorOverride: unknown;
  /** Who started the experiment: the starter of each of its runs (Run.startedBy). */
  readonly startedBy: string;
}

/**
 * Gives a sample its run, in the caller's transaction: claims sample.runId (only while it has
 * none), then writes the queued run, its first ledger entry (the case: key, sample and checks,
 * which the worker adds to the workflow's guards) and its start message. Either all of it
 * commits or none, so a sample never gets two runs and a claimed sample never lacks one.
 * @returns the run's id, or null when the sample already had a run.
 */
export async function startSampleRun(tx: SqlExecutor, d: SqlDialect, sample: SampleToStart): Promise<string | null> {
  const runId = timeOrderedId();
  const claimed = await tx.execute(`UPDATE "ExperimentSample" SET "runId" = ?, "startedAt" = ${d.now} WHERE "id" = ? AND "runId" IS NULL`, [runId, sample.sampleId]);
  if (claimed !== 1) return null;
  await tx.execute(
    `INSERT INTO "Run" ("id", "workflowVersionId", "specification", "status", "workflowState", "contextValues", "generatorOverride", "experimentId", "startedBy", "createdAt", "updatedAt")
     VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?, ${d.now}, ${d.now})`,
    [
      runId,
      sample.workflowVersionId,
      sample.specification,
      d.json(initialWorkflowState),
      d.json(sample.variables),
      sample.generatorOverride === undefined || sample.generatorOverride === null ? null : d.json(sample.generatorOverride),
      sample.experimentId,
      sample.startedBy,
    ],
  );
  const payload = { experimentId: sample.experimentId, caseKey: sample.caseKey, sample: sample.sample, checks: sample.checks };
  await insertLedger(tx, d, runId, 0, [{ seq: 1, actor: "dualstate", type: "experiment.case", payload, callKey: CASE_LEDGER_KEY }]);
  await insertMessage(tx, d, runId, "start", {});
  return runId;
}
