import type { Db } from "@/server/persistence/db";
import { toPage, pageWindow, type Page, type PageRequest } from "../list-page";

export interface ExperimentListItem {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly k: number;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
  readonly workflow: string;
  readonly workflowVersion: number;
  readonly dataset: string;
  readonly datasetId: string;
  readonly datasetVersion: number;
  readonly samples: number;
  readonly ended: number;
  readonly succeeded: number;
}

/** Experiments, newest first, a page at a time, with their progress and successes so far; optionally of one dataset (the compare picker). */
export async function listExperiments(db: Db, request: PageRequest & { datasetId?: string }): Promise<Page<ExperimentListItem>> {
  const where = request.datasetId ? { datasetVersion: { datasetId: request.datasetId } } : {};
  const [rows, total] = await Promise.all([
    db.experiment.findMany({ where, orderBy: { createdAt: "desc" }, ...pageWindow(request), include: { datasetVersion: { select: { version: true, dataset: { select: { id: true, name: true } } } } } }),
    db.experiment.count({ where }),
  ]);
  const ids = rows.map((row) => row.id);
  const versions = await db.workflowVersion.findMany({ where: { id: { in: rows.map((row) => row.workflowVersionId) } }, select: { id: true, version: true, workflow: { select: { name: true } } } });
  const versionOf = new Map(versions.map((version) => [version.id, version]));
  const counts = await db.experimentSample.groupBy({ by: ["experimentId", "outcome"], where: { experimentId: { in: ids } }, _count: { _all: true } });
  const tally = (id: string, match: (outcome: string | null) => boolean) => counts.filter((row) => row.experimentId === id && match(row.outcome)).reduce((sum, row) => sum + row._count._all, 0);
  const items = rows.map((row): ExperimentListItem => ({
    id: row.id,
    name: row.name,
    status: row.status,
    k: row.k,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    workflow: versionOf.get(row.workflowVersionId)?.workflow.name ?? "(deleted workflow)",
    workflowVersion: versionOf.get(row.workflowVersionId)?.version ?? 0,
    dataset: row.datasetVersion.dataset.name,
    datasetId: row.datasetVersion.dataset.id,
    datasetVersion: row.datasetVersion.version,
    samples: tally(row.id, () => true),
    ended: tally(row.id, (outcome) => outcome !== null),
    succeeded: tally(row.id, (outcome) => outcome === "succeeded"),
  }));
  return toPage(items, total, request);
}
