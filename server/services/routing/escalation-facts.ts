import type { Db } from "@/server/persistence/db";
import { guardKindsOfStep, type EscalationFacts } from "@/server/review-policy/routing";

/** What to select of an escalation to know its routing facts. */
export const FACTS_SELECT = {
  stepName: true,
  feedback: true,
  run: { select: { workflowVersionId: true, workflowVersion: { select: { workflow: { select: { name: true } } } } } },
} as const;

interface FactsRow {
  readonly stepName: string;
  readonly feedback: string;
  readonly run: { readonly workflowVersionId: string | null; readonly workflowVersion: { readonly workflow: { readonly name: string } } | null };
}

/**
 * The routing facts of a batch of escalations. Each workflow version's definition (the step's guard
 * kinds) is read once per batch, however many of its escalations there are.
 */
export async function escalationFacts(db: Db, rows: readonly FactsRow[]): Promise<EscalationFacts[]> {
  const versionIds = [...new Set(rows.flatMap((row) => (row.run.workflowVersionId ? [row.run.workflowVersionId] : [])))];
  const versions = versionIds.length === 0 ? [] : await db.workflowVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, definition: true } });
  const definitions = new Map(versions.map((version) => [version.id, version.definition as unknown]));
  return rows.map((row) => ({
    workflow: row.run.workflowVersion?.workflow.name ?? null,
    step: row.stepName,
    guardKinds: row.run.workflowVersionId ? guardKindsOfStep(definitions.get(row.run.workflowVersionId), row.stepName) : [],
    feedback: row.feedback,
  }));
}
