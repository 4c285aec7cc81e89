import { TERMINAL_RUN_STATUSES } from "@/server/durable/lifecycle";
import type { Db } from "@/server/persistence/db";
import { invalidInput, notFound } from "../errors";
import { appendCase } from "./append-case";
import type { CreatedDatasetVersion } from "./create-dataset-version";
import { variablesOfRun } from "./variables-of-run";

export interface AddCaseFromRunInput {
  runId: string;
  datasetName: string;
}

/**
 * Adds a finished run's task (its specification and context variable values) to a dataset as a
 * new case keyed `run-<id prefix>`, in a new version; creates the dataset when missing.
 */
export async function addCaseFromRun(db: Db, actor: { email: string }, input: AddCaseFromRunInput): Promise<CreatedDatasetVersion & { key: string }> {
  const run = await db.run.findUnique({ where: { id: input.runId }, select: { id: true, status: true, specification: true, contextValues: true } });
  if (!run) throw notFound("Run", input.runId);
  if (!(TERMINAL_RUN_STATUSES as readonly string[]).includes(run.status)) throw invalidInput("runId", `the run is ${run.status}; only a finished run can become a case`);
  const variables = variablesOfRun(run.contextValues);
  return appendCase(db, {
    datasetName: input.datasetName,
    keyBase: `run-${run.id.slice(0, 8)}`,
    item: { specification: run.specification, ...(variables ? { variables } : {}), sourceRunId: run.id },
    source: "run",
    createdBy: actor.email,
  });
}
