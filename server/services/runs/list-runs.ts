import type { Db, Prisma } from "@/server/persistence/db";
import type { RunStatus } from "@/prisma/generated/sqlite/client";
import { containsText } from "@/server/persistence/text-search";
import { excerpt, pageWindow, toPage, type Page, type PageRequest } from "../list-page";
import { recentRunSelect, type RecentRun } from "./list-recent-runs";

export interface RunListQuery extends PageRequest {
  /** Matched case-insensitively against the run's id, its specification and its workflow's name. */
  readonly search?: string;
  readonly status?: RunStatus;
  /** The workflow's name, exactly. */
  readonly workflow?: string;
  /** Created at or after. */
  readonly from?: Date;
  /** Created before. */
  readonly to?: Date;
}

function runWhere(db: Db, query: RunListQuery): Prisma.RunWhereInput {
  const createdAt: Prisma.DateTimeFilter = { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lt: query.to } : {}) };
  const search = query.search?.trim();
  return {
    ...(query.status ? { status: query.status } : {}),
    ...(query.workflow ? { workflowVersion: { workflow: { name: query.workflow } } } : {}),
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
    ...(search
      ? { OR: [{ id: containsText(db, search) }, { specification: containsText(db, search) }, { workflowVersion: { workflow: { name: containsText(db, search) } } }] }
      : {}),
  };
}

/** The runs page: newest first, searched, filtered and paged, with the count of all that match. */
export async function listRuns(db: Db, query: RunListQuery): Promise<Page<RecentRun>> {
  const where = runWhere(db, query);
  const [rows, total] = await Promise.all([
    // id breaks ties between runs created in the same millisecond, so pages never overlap.
    db.run.findMany({ select: recentRunSelect, where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageWindow(query) }),
    db.run.count({ where }),
  ]);
  const items = rows.map(({ workflowVersion, specification, ...run }) => ({
    ...run,
    specification: excerpt(specification),
    workflow: workflowVersion ? { id: workflowVersion.workflow.id, name: workflowVersion.workflow.name, version: workflowVersion.version } : null,
  }));
  return toPage(items, total, query);
}
