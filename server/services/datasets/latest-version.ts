import type { Db } from "@/server/persistence/db";
import { CASE_ROW_SELECT, toVersionCase } from "./stored-case";
import type { VersionCase } from "./create-dataset-version";

/** The newest version of the dataset named `name` and its cases in order, or null when there is none. */
export async function latestVersionByName(db: Db, name: string): Promise<{ version: number; cases: VersionCase[] } | null> {
  const latest = await db.datasetVersion.findFirst({
    where: { dataset: { name: name.trim() } },
    orderBy: { version: "desc" },
    select: { version: true, cases: { orderBy: { position: "asc" }, select: CASE_ROW_SELECT } },
  });
  return latest ? { version: latest.version, cases: latest.cases.map(toVersionCase) } : null;
}
