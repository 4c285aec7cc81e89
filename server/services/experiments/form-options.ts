import type { Db } from "@/server/persistence/db";
import { bundledCassettePath } from "../examples/bundled-cassette";

/** Entries the new-experiment form lists (the newest first); a longer list is searched elsewhere. */
const MAX_OPTIONS = 200;
const MAX_VERSIONS = 50;

export interface ExperimentFormOptions {
  readonly workflows: readonly { readonly id: string; readonly name: string; readonly versions: readonly number[]; readonly bundledCassette: boolean }[];
  readonly datasets: readonly { readonly id: string; readonly name: string; readonly versions: readonly { readonly version: number; readonly cases: number }[] }[];
}

/** What the new-experiment form offers: workflows that may run, with their versions, and datasets with theirs. */
export async function experimentFormOptions(db: Db): Promise<ExperimentFormOptions> {
  const workflows = await db.workflow.findMany({
    where: { archivedAt: null },
    orderBy: { updatedAt: "desc" },
    take: MAX_OPTIONS,
    select: { id: true, name: true, versions: { orderBy: { version: "desc" }, take: MAX_VERSIONS, select: { version: true } } },
  });
  const datasets = await db.dataset.findMany({
    orderBy: { updatedAt: "desc" },
    take: MAX_OPTIONS,
    select: { id: true, name: true, versions: { orderBy: { version: "desc" }, take: MAX_VERSIONS, select: { version: true, _count: { select: { cases: true } } } } },
  });
  return {
    workflows: workflows.map((workflow) => ({ id: workflow.id, name: workflow.name, versions: workflow.versions.map((version) => version.version), bundledCassette: bundledCassettePath(workflow.name) !== null })),
    datasets: datasets.map((dataset) => ({ id: dataset.id, name: dataset.name, versions: dataset.versions.map((version) => ({ version: version.version, cases: version._count.cases })) })),
  };
}
