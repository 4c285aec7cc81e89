import type { Db, Prisma } from "@/server/persistence/db";
import { containsText } from "@/server/persistence/text-search";
import { ESCALATION_STATUSES, type EscalationStatus } from "@/server/durable/lifecycle";
import { groupsOf } from "../reviewer-groups/list-reviewer-groups";
import { reachOf, REACH_SELECT, type EscalationReach } from "./escalation-reach";
import { quorumViewOf } from "./quorum-view";

export { ESCALATION_STATUSES, type EscalationStatus };
export const ESCALATION_SORTS = ["oldest", "newest", "deadline"] as const;
/** The queue's "offered to" filter: any escalation, or those offered to the asking reviewer's groups (or to everyone). */
export const OFFERED_TO = ["anyone", "mine"] as const;
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
  /** "mine": only escalations offered to every reviewer or to a group the asking reviewer is in. */
  offeredTo?: (typeof OFFERED_TO)[number];
  /** Matched case-insensitively against the escalation's and its run's ids, the step, the guard, the run's specification and the workflow's name. */
  search?: string;
  /** Raised at or after / before (the page's date filter; the age filter above is relative to now). */
  from?: Date;
  to?: Date;
  /** Offset paging (the queue page); without it the first `limit` rows (the CLI). */
  page?: number;
  pageSize?: number;
  limit?: number;
}

export interface EscalationListItem {
  id: string;
  /** "guard" or "budget" (server/durable/lifecycle.ts ESCALATION_KINDS). */
  kind: string;
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
  /** Null for a budget escalation, which has no attempt. */
  contentHash: string | null;
  /** The run's tokens and cost so far. */
  runTokens: number;
  runCostUsd: number;
  /** The escalated attempt's verdict was fatal: approving it needs its code seen (seen-code-rule.ts). */
  fatal: boolean;
  /** The reviewer asking has opened its review page (false when the list was asked for by no one in particular). */
  seenByYou: boolean;
  /** Who it is offered to (and from whom it was handed off), and what its deadline does. */
  reach: EscalationReach;
  /** Under a quorum policy: where the votes stand ("1 of 2 approvals (alice@…)") and why the reviewer asking may not approve; null for a single decision. */
  quorum: { summary: string; yourVote: "approve" | "reject" | null; approvalRefusal: string | null } | null;
}

/**
 * The review queue: escalations filtered by status (pending by default), workflow, step and age,
 * sorted, with a count per status under the same workflow/step/age filters.
 */
export interface EscalationList {
  items: EscalationListItem[];
  counts: Record<EscalationStatus, number>;
  /** Escalations under the workflow/step/age/search filters, whatever their status. */
  total: number;
  /** Those that also have the status asked for: what the pages page through. */
  matching: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

function searchWhere(db: Db, text: string | undefined): Prisma.EscalationWhereInput {
  const search = text?.trim();
  if (!search) return {};
  const contains = containsText(db, search);
  return {
    OR: [
      { id: contains },
      { runId: contains },
      { stepName: contains },
      { guardId: contains },
      { run: { specification: contains } },
      { run: { workflowVersion: { workflow: { name: contains } } } },
    ],
  };
}

export async function listEscalations(db: Db, input: ListEscalationsInput = {}, options: { now?: Date; reviewer?: string } = {}): Promise<EscalationList> {
  const now = options.now ?? new Date();
  const createdAt: Prisma.DateTimeFilter = {};
  if (input.minAgeMinutes !== undefined) createdAt.lte = new Date(now.getTime() - input.minAgeMinutes * 60_000);
  if (input.maxAgeMinutes !== undefined) createdAt.gte = new Date(now.getTime() - input.maxAgeMinutes * 60_000);
  // Both an age and a date bound may apply: the later start and the earlier end win.
  if (input.from && (!createdAt.gte || input.from > (createdAt.gte as Date))) createdAt.gte = input.from;
  if (input.to) createdAt.lt = input.to;
  const myGroups = input.offeredTo === "mine" ? await groupsOf(db, options.reviewer ?? "") : null;
  const common: Prisma.EscalationWhereInput = {
    ...searchWhere(db, input.search),
    ...(myGroups ? { AND: [{ OR: [{ reviewGroup: null }, { reviewGroup: { in: myGroups } }] }] } : {}),
    ...(input.step ? { stepName: input.step } : {}),
    ...(input.workflow ? { run: { workflowVersion: { workflow: { name: input.workflow } } } } : {}),
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
  };
  const status = input.status ?? "pending";
  const where: Prisma.EscalationWhereInput = status === "all" ? common : { ...common, status };
  const orderBy: Prisma.EscalationOrderByWithRelationInput[] =
    input.sort === "newest" ? [{ createdAt: "desc" }, { id: "desc" }] : input.sort === "deadline" ? [{ expiresAt: "asc" }, { createdAt: "asc" }] : [{ createdAt: "asc" }, { id: "asc" }];
  const pageSize = input.pageSize ?? input.limit ?? 100;
  const page = input.page ?? 1;
  const [rows, grouped, matching] = await Promise.all([
    db.escalation.findMany({
      where,
      orderBy,
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: {
        id: true, kind: true, runId: true, stepName: true, guardId: true, feedback: true, status: true, createdAt: true, expiresAt: true,
        claimedBy: true, claimedAt: true, decision: true, decidedBy: true, decidedAt: true, comment: true, ...REACH_SELECT,
        // Fewer than the policy's two counts while pending (each at most 10): bounded anyway.
        approvals: { select: { reviewer: true, vote: true, createdAt: true }, orderBy: [{ createdAt: "asc" }, { reviewer: "asc" }], take: 50 },
        artifact: { select: { contentHash: true, fatal: true } },
        views: { where: { reviewer: options.reviewer ?? "" }, select: { reviewer: true }, take: 1 },
        run: { select: { startedBy: true, specification: true, promptTokens: true, completionTokens: true, costUsd: true, workflowVersion: { select: { workflow: { select: { name: true } } } } } },
      },
    }),
    db.escalation.groupBy({ by: ["status"], where: common, _count: { _all: true } }),
    db.escalation.count({ where }),
  ]);
  const counts = Object.fromEntries(ESCALATION_STATUSES.map((name) => [name, 0])) as Record<EscalationStatus, number>;
  for (const group of grouped) counts[group.status] = group._count._all;
  const reach = await reachOf(db, rows);
  return {
    items: rows.map(({ artifact, run, views, reviewGroup: _group, handedOffAt: _handedOffAt, policy, approvals, ...row }) => ({
      ...row,
      reach: reach.get(row.id)!,
      quorum: quorumSummary(quorumViewOf(policy, approvals, run.startedBy, options.reviewer ?? null)),
      workflow: run.workflowVersion?.workflow.name ?? null,
      specification: run.specification.length > SPECIFICATION_PREVIEW ? `${run.specification.slice(0, SPECIFICATION_PREVIEW)}…` : run.specification,
      // A budget escalation decides on more budget, not on an attempt: no artifact.
      contentHash: artifact?.contentHash ?? null,
      fatal: artifact?.fatal ?? false,
      runTokens: run.promptTokens + run.completionTokens,
      runCostUsd: run.costUsd,
      seenByYou: options.reviewer !== undefined && views.length > 0,
    })),
    counts,
    total: Object.values(counts).reduce((sum, count) => sum + count, 0),
    matching,
    page,
    pageSize,
    pageCount: Math.max(1, Math.ceil(matching / pageSize)),
  };
}

function quorumSummary(view: ReturnType<typeof quorumViewOf>): EscalationListItem["quorum"] {
  return view ? { summary: view.summary, yourVote: view.yourVote, approvalRefusal: view.approvalRefusal } : null;
}
