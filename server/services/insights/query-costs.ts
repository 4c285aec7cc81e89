import type { Db } from "@/server/persistence/db";
import { INSIGHTS_LIMITS } from "./insights-limits";
import type { InsightsSql } from "./insights-sql";
import type { RunFilter } from "./run-filter";

export interface WorkflowCost {
  /** Null for runs of no stored workflow version. */
  readonly workflowId: string | null;
  readonly name: string;
  readonly runs: number;
  readonly costUsd: number;
  readonly costPerRunUsd: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export interface CostFigures {
  readonly runs: number;
  readonly costUsd: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** The most expensive workflows first, at most INSIGHTS_LIMITS.costWorkflows. */
  readonly workflows: readonly WorkflowCost[];
  /** True when more workflows had runs than are listed. */
  readonly truncated: boolean;
}

type Sum = bigint | number | null;
const NO_WORKFLOW = "(no workflow)";

/** Run.costUsd and the token columns summed per workflow version, then per workflow. */
export async function queryCosts(db: Db, sql: InsightsSql, filter: RunFilter): Promise<CostFigures> {
  const select = `COUNT(*) AS "runs", SUM(r."costUsd") AS "cost", SUM(r."promptTokens") AS "prompt", SUM(r."completionTokens") AS "completion"`;
  const [totals] = await sql.query<{ runs: Sum; cost: Sum; prompt: Sum; completion: Sum }>(`SELECT ${select} FROM "Run" r WHERE ${filter.sql}`, filter.params);
  const perVersion = await sql.query<{ version: string | null; runs: Sum; cost: Sum; prompt: Sum; completion: Sum }>(
    `SELECT r."workflowVersionId" AS "version", ${select} FROM "Run" r WHERE ${filter.sql} GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT ${INSIGHTS_LIMITS.costVersions}`,
    filter.params,
  );
  const versionIds = perVersion.flatMap((row) => (row.version === null ? [] : [row.version]));
  const versions = versionIds.length === 0 ? [] : await db.workflowVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, workflowId: true, workflow: { select: { name: true } } } });
  const workflowOf = new Map(versions.map((version) => [version.id, { id: version.workflowId, name: version.workflow.name }]));

  const perWorkflow = new Map<string, { workflowId: string | null; name: string; runs: number; costUsd: number; promptTokens: number; completionTokens: number }>();
  for (const row of perVersion) {
    const workflow = row.version === null ? undefined : workflowOf.get(row.version);
    const key = workflow?.id ?? "";
    const entry = perWorkflow.get(key) ?? { workflowId: workflow?.id ?? null, name: workflow?.name ?? NO_WORKFLOW, runs: 0, costUsd: 0, promptTokens: 0, completionTokens: 0 };
    entry.runs += Number(row.runs ?? 0);
    entry.costUsd += Number(row.cost ?? 0);
    entry.promptTokens += Number(row.prompt ?? 0);
    entry.completionTokens += Number(row.completion ?? 0);
    perWorkflow.set(key, entry);
  }
  const ranked = [...perWorkflow.values()].sort((a, b) => b.costUsd - a.costUsd || b.runs - a.runs || a.name.localeCompare(b.name));
  return {
    runs: Number(totals?.runs ?? 0),
    costUsd: Number(totals?.cost ?? 0),
    promptTokens: Number(totals?.prompt ?? 0),
    completionTokens: Number(totals?.completion ?? 0),
    workflows: ranked.slice(0, INSIGHTS_LIMITS.costWorkflows).map((entry) => ({ ...entry, costPerRunUsd: entry.runs === 0 ? 0 : entry.costUsd / entry.runs })),
    truncated: ranked.length > INSIGHTS_LIMITS.costWorkflows || perVersion.length >= INSIGHTS_LIMITS.costVersions,
  };
}
