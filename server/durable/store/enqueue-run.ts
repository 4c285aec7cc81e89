import { initialWorkflowState } from "../../engine";
import type { SqlClient } from "../../persistence/sql/sql-client";
import { WorkflowArchivedError } from "../errors";
import { timeOrderedId } from "../ids";
import { insertLedger } from "./insert-ledger";
import { insertMessage } from "./insert-message";
import { parseBudgetSpec, type RunBudget } from "../../usage/budget";

/** A ledger entry a run starts with, before any turn (epoch 0): a fork's reused results. */
export interface SeededLedgerEntry {
  readonly actor: string;
  readonly type: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly callKey: string | null;
}

export interface NewDurableRun {
  readonly workflowVersionId: string;
  readonly specification: string;
  readonly contextValues?: Readonly<Record<string, boolean | number | string>>;
  readonly generatorOverride?: unknown;
  /** A fork: the run and attempt it starts from, and the ledger it starts with. */
  readonly fork?: { readonly fromRunId: string; readonly attemptKey: string; readonly ledger: readonly SeededLedgerEntry[] };
  /** The run's own budget (a start request's); absent: the workflow's `budget:`, if it has one. */
  readonly budget?: RunBudget;
  /** Who starts it (Run.startedBy): a person's email, or "cli"; a quorum policy may refuse them approving it. */
  readonly startedBy?: string | null;
}

/**
 * Creates a queued run (with a fork's seeded ledger) and its start message in one transaction.
 * Time-ordered id: a run's rows in every (runId, …) index land next to the newest runs' rows.
 * @throws WorkflowArchivedError when the version's workflow is archived (checked in the same transaction).
 */
export async function enqueueRun(sql: SqlClient, run: NewDurableRun): Promise<{ runId: string }> {
  const d = sql.dialect;
  const runId = timeOrderedId();
  await sql.transaction(async (tx) => {
    // The workflow's budget is read in the same statement, as JSON only: the definition stays in the database.
    const budgetOf = d.provider === "postgres" ? `v."definition"->'budget'` : `json_extract(v."definition", '$.budget')`;
    const [pinned] = await tx.query<{ name: string; archivedAt: unknown; budget: unknown }>(
      `SELECT w."name", w."archivedAt", ${budgetOf} AS "budget" FROM "WorkflowVersion" v JOIN "Workflow" w ON w."id" = v."workflowId" WHERE v."id" = ?`,
      [run.workflowVersionId],
    );
    if (pinned?.archivedAt) throw new WorkflowArchivedError(pinned.name);
    const budget = run.budget ?? workflowBudget(d.readJson(pinned?.budget ?? null));
    await tx.execute(
      `INSERT INTO "Run" ("id", "workflowVersionId", "specification", "status", "workflowState", "contextValues", "generatorOverride", "forkedFromRunId", "forkedFromAttempt", "budget", "startedBy", "createdAt", "updatedAt")
       VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ${d.now}, ${d.now})`,
      [
        runId,
        run.workflowVersionId,
        run.specification,
        d.json(initialWorkflowState),
        d.json(run.contextValues ?? {}),
        run.generatorOverride === undefined ? null : d.json(run.generatorOverride),
        run.fork?.fromRunId ?? null,
        run.fork?.attemptKey ?? null,
        budget ? d.json(budget) : null,
        run.startedBy ?? null,
      ],
    );
    const seeded = run.fork?.ledger ?? [];
    await insertLedger(tx, d, runId, 0, seeded.map((entry, index) => ({ ...entry, seq: index + 1 })));
    await insertMessage(tx, d, runId, "start", {});
  });
  return { runId };
}

/** A stored definition's `budget:` (validated when it was saved); anything else reads as none. */
function workflowBudget(value: unknown): RunBudget | null {
  if (value === null || value === undefined) return null;
  const parsed = parseBudgetSpec(value);
  return parsed.ok ? parsed.budget : null;
}
