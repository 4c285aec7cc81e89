import type { Db, Prisma } from "@/server/persistence/db";
import type { RunStatus } from "@/prisma/generated/sqlite/client";

const recentRunSelect = {
  id: true,
  status: true,
  specification: true,
  attemptCount: true,
  createdAt: true,
  finishedAt: true,
  workflowVersion: { select: { version: true, workflow: { select: { id: true, name: true } } } },
} satisfies Prisma.RunSelect;

export interface RecentRun {
  id: string;
  status: RunStatus;
  /** In full: shortening it for display is the client's choice. */
  specification: string;
  attemptCount: number;
  createdAt: Date;
  finishedAt: Date | null;
  /** Null only for runs whose workflow version is no longer linked. */
  workflow: { id: string; name: string; version: number } | null;
}

/** The newest runs first, with the workflow and version each one ran. */
export async function listRecentRuns(db: Db, input: { limit: number }): Promise<RecentRun[]> {
  const rows = await db.run.findMany({
    select: recentRunSelect,
    // id breaks ties between runs created in the same millisecond, so the order is stable.
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit,
  });
  return rows.map(({ workflowVersion, ...run }) => ({
    ...run,
    workflow: workflowVersion
      ? { id: workflowVersion.workflow.id, name: workflowVersion.workflow.name, version: workflowVersion.version }
      : null,
  }));
}
