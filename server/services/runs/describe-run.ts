import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";
import { buildRunReport, type RunReport } from "./run-report";
import { getRunExecution, type RunExecution } from "./execution/get-run-execution";
import { budgetReviewOf, type BudgetReview } from "../usage/budget-review";
import { readRunUsage } from "../usage/run-usage";
import type { UsageTotals } from "@/server/usage/usage-by-attempt";

export interface RunUsageReport {
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  byStep: Record<string, UsageTotals>;
  byAttempt: Record<string, UsageTotals>;
  budget: BudgetReview | null;
}

/** A run's head (003 section 2): where its lifecycle stands and who holds it. */
export interface RunHead {
  id: string;
  workflow: string | null;
  version: number | null;
  specification: string;
  status: string;
  epoch: number;
  activeTurnId: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  resumeDeadline: Date | null;
  watchdogNote: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface RunDescription {
  head: RunHead;
  report: RunReport;
  ledger: { entries: number; modelCalls: number; byType: Record<string, number> };
  /** Tokens and cost of its model calls (the run's totals), by step and attempt, and its budget. */
  usage: RunUsageReport;
  /** Its turns, what it waits for, its edges, parent and sub-runs, and what the watchdog did (each bounded). */
  execution: RunExecution;
}

const headSelect = {
  id: true,
  specification: true,
  status: true,
  epoch: true,
  activeTurnId: true,
  leaseOwner: true,
  leaseExpiresAt: true,
  resumeDeadline: true,
  watchdogNote: true,
  createdAt: true,
  finishedAt: true,
  workflowVersion: { select: { version: true, workflow: { select: { name: true } } } },
} as const;

type HeadRow = { workflowVersion: { version: number; workflow: { name: string } } | null } & Omit<RunHead, "workflow" | "version">;

function toHead({ workflowVersion, ...run }: HeadRow): RunHead {
  return { ...run, workflow: workflowVersion?.workflow.name ?? null, version: workflowVersion?.version ?? null };
}

/** The newest runs first, with their heads. */
export async function listRunHeads(db: Db, limit: number): Promise<RunHead[]> {
  const rows = await db.run.findMany({ select: headSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  return rows.map(toHead);
}

/** One run: head, result report, and its ledger counted by entry type (model calls apart). */
export async function describeRun(db: Db, runId: string): Promise<RunDescription> {
  const row = await db.run.findUnique({ where: { id: runId }, select: headSelect });
  if (!row) throw notFound("Run", runId);
  const counts = await db.ledgerEntry.groupBy({ by: ["type"], where: { runId }, _count: { _all: true } });
  const calls = await db.ledgerEntry.findMany({ where: { runId, type: "action_call" }, select: { payload: true } });
  const byType = Object.fromEntries(counts.map((count) => [count.type, count._count._all]));
  const totals = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { promptTokens: true, completionTokens: true, costUsd: true, budget: true } });
  const callUsage = await readRunUsage(db, runId);
  return {
    head: toHead(row),
    report: await buildRunReport(db, runId),
    ledger: {
      entries: counts.reduce((sum, count) => sum + count._count._all, 0),
      modelCalls: calls.filter((call) => (call.payload as { policy?: unknown }).policy === "model").length,
      byType,
    },
    usage: {
      promptTokens: totals.promptTokens,
      completionTokens: totals.completionTokens,
      costUsd: totals.costUsd,
      byStep: callUsage.byStep,
      byAttempt: callUsage.byAttempt,
      budget: totals.budget === null ? null : budgetReviewOf(totals.budget, totals),
    },
    execution: await getRunExecution(db, runId),
  };
}
