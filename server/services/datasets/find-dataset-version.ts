import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";
import { CASE_ROW_SELECT, toVersionCase } from "./stored-case";
import type { VersionCase } from "./create-dataset-version";

export interface FoundDatasetVersion {
  datasetId: string;
  versionId: string;
  version: number;
  /** In order, each with its row id (what an experiment's samples name). */
  cases: (VersionCase & { id: string })[];
}

/**
 * A dataset version by the dataset's name: the one numbered `version`, or the newest. For
 * callers that run cases (experiments, `dualstate eval --dataset NAME [--version N]`).
 */
export async function findDatasetVersion(db: Db, input: { name: string; version?: number }): Promise<FoundDatasetVersion> {
  const name = input.name.trim();
  const found = await db.datasetVersion.findFirst({
    where: { dataset: { name }, ...(input.version !== undefined ? { version: input.version } : {}) },
    orderBy: { version: "desc" },
    select: { id: true, datasetId: true, version: true, cases: { orderBy: { position: "asc" }, select: { id: true, ...CASE_ROW_SELECT } } },
  });
  if (!found) throw notFound(input.version !== undefined ? "Dataset version" : "Dataset", input.version !== undefined ? `${name} v${input.version}` : name);
  return { datasetId: found.datasetId, versionId: found.id, version: found.version, cases: found.cases.map((row) => ({ id: row.id, ...toVersionCase(row) })) };
}
