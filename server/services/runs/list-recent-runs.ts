import type { Db, Prisma } from "@/server/persistence/db";
import type { RunStatus } from "@/prisma/generated/sqlite/client";

/** The columns a run list shows (the recent-runs list and the searched, paged one). */
export const recentRunSelect = {
  id: true,
  status: true,
  specification: true,
  attemptCount: true,
  promptTokens: true,
  completionTokens: true,
  costUsd: true,
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
  /** The run's model calls so far (server/usage). */
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  createdAt: Date;
  finishedAt: Date | null;
  /** Null only for runs whose workflow version is no longer linked. */
  workflow: { id: string; name: string; version: number } | null;
}

export interface RunFilter {
  readonly limit: number;
  readonly status?: RunStatus;
  /** The workflow's name. */
  readonly workflow?: string;
  /** Runs created before this one (the last of the previous page). */
  readonly cursor?: { readonly createdAt: Date; readonly id: string } | null;
}

/** The newest runs first, with the workflow and version each one ran; filtered and paged. */
export async function listRecentRuns(db: Db, input: RunFilter): Promise<RecentRun[]> {
  const rows = await db.run.findMany({
    select: recentRunSelect,
    where: {
      ...(input.status ? { status: input.status } : {}),
      ...(input.workflow ? { workflowVersion: { workflow: { name: input.workflow } } } : {}),
      ...(input.cursor ? { OR: [{ createdAt: { lt: input.cursor.createdAt } }, { createdAt: input.cursor.createdAt, id: { lt: input.cursor.id } }] } : {}),
    },
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
