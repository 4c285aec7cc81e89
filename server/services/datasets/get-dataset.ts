import type { CaseChecks, CaseVariableValue } from "@/server/datasets/types";
import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";

export interface GetDatasetInput {
  id: string;
  /** The version to show; the newest when absent. */
  version?: number;
  page?: number;
  pageSize?: number;
}

export interface DatasetCaseView {
  id: string;
  position: number;
  key: string;
  specification: string;
  variables: Record<string, CaseVariableValue> | null;
  checks: CaseChecks | null;
  sourceRunId: string | null;
  sourceEscalationId: string | null;
}

export interface DatasetVersionSummary {
  id: string;
  version: number;
  source: string;
  createdBy: string;
  createdAt: Date;
  cases: number;
}

export interface DatasetDetail {
  id: string;
  name: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  /** Newest first, at most MAX_LISTED_VERSIONS. */
  versions: DatasetVersionSummary[];
  /** The version shown and one page of its cases, in order. */
  version: (DatasetVersionSummary & { isLatest: boolean; page: number; pageSize: number; items: DatasetCaseView[] }) | null;
}

export const MAX_LISTED_VERSIONS = 100;
const VERSION_SELECT = { id: true, version: true, source: true, createdBy: true, createdAt: true, _count: { select: { cases: true } } } as const;

function summarise({ _count, ...version }: { id: string; version: number; source: string; createdBy: string; createdAt: Date; _count: { cases: number } }): DatasetVersionSummary {
  return { ...version, cases: _count.cases };
}
const DEFAULT_PAGE_SIZE = 50;

export async function getDataset(db: Db, input: GetDatasetInput): Promise<DatasetDetail> {
  const dataset = await db.dataset.findUnique({
    where: { id: input.id },
    select: {
      id: true,
      name: true,
      description: true,
      createdAt: true,
      updatedAt: true,
      versions: { orderBy: { version: "desc" }, take: MAX_LISTED_VERSIONS, select: VERSION_SELECT },
    },
  });
  if (!dataset) throw notFound("Dataset", input.id);
  const versions = dataset.versions.map(summarise);
  const newest = versions[0];
  const wanted = input.version ?? newest?.version;
  const chosen =
    wanted === undefined
      ? undefined
      : await db.datasetVersion.findUnique({ where: { datasetId_version: { datasetId: dataset.id, version: wanted } }, select: VERSION_SELECT }).then((found) => (found ? summarise(found) : undefined));
  if (input.version !== undefined && !chosen) throw notFound("Version", `${dataset.name} v${input.version}`);

  let version: DatasetDetail["version"] = null;
  if (chosen) {
    const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
    const page = input.page ?? 1;
    const rows = await db.datasetCase.findMany({
      where: { datasetVersionId: chosen.id },
      orderBy: { position: "asc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: { id: true, position: true, key: true, specification: true, variables: true, checks: true, sourceRunId: true, sourceEscalationId: true },
    });
    version = {
      ...chosen,
      isLatest: chosen.version === newest?.version,
      page,
      pageSize,
      items: rows.map((row) => ({ ...row, variables: row.variables as DatasetCaseView["variables"], checks: row.checks as DatasetCaseView["checks"] })),
    };
  }
  const { versions: _versions, ...rest } = dataset;
  return { ...rest, versions, version };
}
