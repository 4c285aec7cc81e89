import type { Db } from "@/server/persistence/db";
import { containsText } from "@/server/persistence/text-search";

export interface DatasetSummary {
  id: string;
  name: string;
  description: string;
  updatedAt: Date;
  /** The newest version's number and case count; null for a dataset whose versions are all gone. */
  latest: { version: number; cases: number; createdAt: Date } | null;
}

/** Datasets shown at most; past this the list is searched. */
export const MAX_LISTED_DATASETS = 200;

/** Datasets by name, optionally those whose name contains `search` (ignoring case), each with its newest version. */
export async function listDatasets(db: Db, input: { search?: string } = {}): Promise<DatasetSummary[]> {
  const search = input.search?.trim();
  const datasets = await db.dataset.findMany({
    where: search ? { name: containsText(db, search) } : {},
    orderBy: { name: "asc" },
    take: MAX_LISTED_DATASETS,
    select: {
      id: true,
      name: true,
      description: true,
      updatedAt: true,
      versions: { orderBy: { version: "desc" }, take: 1, select: { version: true, createdAt: true, _count: { select: { cases: true } } } },
    },
  });
  return datasets.map(({ versions, ...dataset }) => {
    const latest = versions[0];
    return { ...dataset, latest: latest ? { version: latest.version, cases: latest._count.cases, createdAt: latest.createdAt } : null };
  });
}
