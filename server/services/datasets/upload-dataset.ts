import { parseDatasetFile } from "@/server/datasets/parse-dataset-file";
import type { DatasetFileError } from "@/server/datasets/types";
import type { Db } from "@/server/persistence/db";
import { createDatasetVersion, type CreatedDatasetVersion } from "./create-dataset-version";

export interface UploadDatasetInput {
  name: string;
  description?: string;
  fileName: string;
  text: string;
}

/**
 * A file's cases as the next version of the named dataset (created when missing). A file with
 * mistakes stores nothing and returns them, each with its line and field, for the page to list.
 */
export async function uploadDataset(
  db: Db,
  actor: { email: string },
  input: UploadDatasetInput,
): Promise<({ ok: true } & CreatedDatasetVersion & { cases: number }) | { ok: false; errors: DatasetFileError[] }> {
  const parsed = parseDatasetFile(input.fileName, input.text);
  if (!parsed.ok) return parsed;
  const created = await createDatasetVersion(db, {
    name: input.name,
    ...(input.description !== undefined ? { description: input.description } : {}),
    cases: parsed.cases,
    source: "upload",
    createdBy: actor.email,
  });
  return { ok: true, ...created, cases: parsed.cases.length };
}
