import type { ParsedCase, DatasetVersionSource } from "@/server/datasets/types";
import type { Db } from "@/server/persistence/db";
import { isServiceError } from "../errors";
import { createDatasetVersion, type CreatedDatasetVersion, type VersionCase } from "./create-dataset-version";
import { latestVersionByName } from "./latest-version";
import { unusedKey } from "./stored-case";

export interface AppendCaseInput {
  datasetName: string;
  /** The key wanted; a suffix is added when the dataset already has it. */
  keyBase: string;
  item: Omit<ParsedCase, "key"> & Pick<VersionCase, "sourceRunId" | "sourceEscalationId">;
  source: DatasetVersionSource;
  createdBy: string;
}

/** Concurrent appends each lose at most once per winner; this bounds the loop. */
const MAX_ATTEMPTS = 20;

/**
 * Adds one case to the named dataset as a new version (the latest cases and this one), creating
 * the dataset when it does not exist. Each try is based on the version it read; when another
 * change took the next number first, it reads again, so no concurrent case is lost.
 */
export async function appendCase(db: Db, input: AppendCaseInput): Promise<CreatedDatasetVersion & { key: string }> {
  for (let attempt = 1; ; attempt++) {
    const latest = await latestVersionByName(db, input.datasetName);
    const cases = latest?.cases ?? [];
    const key = unusedKey(input.keyBase, new Set(cases.map((item) => item.key)));
    try {
      const created = await createDatasetVersion(db, {
        name: input.datasetName,
        cases: [...cases, { key, ...input.item }],
        source: input.source,
        createdBy: input.createdBy,
        expectedVersion: (latest?.version ?? 0) + 1,
      });
      return { ...created, key };
    } catch (error) {
      if (!(isServiceError(error) && error.code === "CONFLICT") || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
