import type { Db, Prisma } from "@/server/persistence/db";

const workflowSummarySelect = {
  id: true,
  name: true,
  description: true,
  updatedAt: true,
  // Every version with its run count: the newest gives the latest number, the sum the total.
  versions: {
    select: { version: true, _count: { select: { runs: true } } },
    orderBy: { version: "desc" },
  },
} satisfies Prisma.WorkflowSelect;

export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  latestVersion: number | null;
  runCount: number;
  updatedAt: Date;
}

/** All workflows, most recently changed first, with their latest version and how often they ran. */
export async function listWorkflows(db: Db): Promise<WorkflowSummary[]> {
  const rows = await db.workflow.findMany({
    select: workflowSummarySelect,
    orderBy: [{ updatedAt: "desc" }, { name: "asc" }],
  });
  return rows.map(({ versions, ...workflow }) => ({
    ...workflow,
    latestVersion: versions[0]?.version ?? null,
    runCount: versions.reduce((total, version) => total + version._count.runs, 0),
  }));
}
