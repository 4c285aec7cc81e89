import type { Db, Prisma } from "@/server/persistence/db";

export const ESCALATION_STATUSES = ["pending", "approved", "rejected", "expired", "cancelled"] as const;
export type EscalationStatus = (typeof ESCALATION_STATUSES)[number];
export const ESCALATION_SORTS = ["oldest", "newest", "deadline"] as const;
const SPECIFICATION_PREVIEW = 160;

export interface ListEscalationsInput {
  status?: EscalationStatus | "all";
  /** Workflow name. */
  workflow?: string;
  step?: string;
  /** Only escalations raised at least this many minutes ago. */
  minAgeMinutes?: number;
  /** Only escalations raised at most this many minutes ago. */
  maxAgeMinutes?: number;
  sort?: (typeof ESCALATION_SORTS)[number];
  limit?: number;
}

export interface EscalationListItem {
  id: string;
  runId: string;
  workflow: string | null;
  /** The run's specification, cut to a line's worth: tells apart escalations of one step. */
  specification: string;
  stepName: string;
  guardId: string;
  feedback: string;
  status: EscalationStatus;
  createdAt: Date;
  expiresAt: Date | null;
  claimedBy: string | null;
  claimedAt: Date | null;
  decision: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  /** The decision's comment (a rejection's reason), or why it closed without one. */
  comment: string | null;
  contentHash: string;
  /** The escalated attempt's verdict was fatal: approving it needs its code seen (seen-code-rule.ts). */
  fatal: boolean;
  /** The reviewer asking has opened its review page (false when the list was asked for by no one in particular). */
  seenByYou: boolean;
}

/**
 * The review queue: escalations filtered by status (pending by default), workflow, step and age,
 * sorted, with a count per status under the same workflow/step/age filters.
 */
export async function listEscalations(db: Db, input: ListEscalationsInput = {}, options: { now?: Date; reviewer?: string } = {}): Promise<{ items: EscalationListItem[]; counts: Record<EscalationStatus, number>; total: number }> {
  const now = options.now ?? new Date();
  const createdAt: Prisma.DateTimeFilter = {};
  if (input.minAgeMinutes !== undefined) createdAt.lte = new Date(now.getTime() - input.minAgeMinutes * 60_000);
  if (input.maxAgeMinutes !== undefined) createdAt.gte = new Date(now.getTime() - input.maxAgeMinutes * 60_000);
  const common: Prisma.EscalationWhereInput = {
    ...(input.step ? { stepName: input.step } : {}),
    ...(input.workflow ? { run: { workflowVersion: { workflow: { name: input.workflow } } } } : {}),
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
  };
  const status = input.status ?? "pending";
  const where: Prisma.EscalationWhereInput = status === "all" ? common : { ...common, status };
  const orderBy: Prisma.EscalationOrderByWithRelationInput[] =
    input.sort === "newest" ? [{ createdAt: "desc" }, { id: "desc" }] : input.sort === "deadline" ? [{ expiresAt: "asc" }, { createdAt: "asc" }] : [{ createdAt: "asc" }, { id: "asc" }];
  const [rows, grouped] = await Promise.all([
    db.escalation.findMany({
      where,
      orderBy,
      take: input.limit ?? 100,
      select: {
        id: true, runId: true, stepName: true, guardId: true, feedback: true, status: true, createdAt: true, expiresAt: true,
        claimedBy: true, claimedAt: true, decision: true, decidedBy: true, decidedAt: true, comment: true,
        artifact: { select: { contentHash: true, fatal: true } },
        views: { where: { reviewer: options.reviewer ?? "" }, select: { reviewer: true }, take: 1 },
        run: { select: { specification: true, workflowVersion: { select: { workflow: { select: { name: true } } } } } },
      },
    }),
    db.escalation.groupBy({ by: ["status"], where: common, _count: { _all: true } }),
  ]);
  const counts = Object.fromEntries(ESCALATION_STATUSES.map((name) => [name, 0])) as Record<EscalationStatus, number>;
  for (const group of grouped) counts[group.status] = group._count._all;
  return {
    items: rows.map(({ artifact, run, views, ...row }) => ({
      ...row,
      workflow: run.workflowVersion?.workflow.name ?? null,
      specification: run.specification.length > SPECIFICATION_PREVIEW ? `${run.specification.slice(0, SPECIFICATION_PREVIEW)}…` : run.specification,
      contentHash: artifact.contentHash,
      fatal: artifact.fatal,
      seenByYou: options.reviewer !== undefined && views.length > 0,
    })),
    counts,
    total: Object.values(counts).reduce((sum, count) => sum + count, 0),
  };
}
