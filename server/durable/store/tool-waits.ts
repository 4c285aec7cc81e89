import { initialWorkflowState, SUB_RUN_FAILED_CODE, TIMEOUT_ERROR_CODE, type JsonObject, type ToolWaitRequest } from "../../engine";
import type { SqlDialect, SqlExecutor } from "../../persistence/sql/sql-client";
import { derivedId, timeOrderedId } from "../ids";
import { TERMINAL_RUN_STATUSES, sqlList, type ToolWaitStatus } from "../lifecycle";
import { insertEdge } from "./insert-edge";
import { insertLedger } from "./insert-ledger";
import { insertMessage } from "./insert-message";

/** Sub-runs nest at most this deep: a workflow tool that (through others) calls its own workflow stops here. */
export const MAX_SUB_RUN_DEPTH = 8;

/** The call id a report names: stable for the call, so a re-suspended turn finds the same wait. */
export function waitIdOf(runId: string, callKey: string): string {
  return derivedId(runId, `wait:${callKey}`);
}

export interface ReportInput {
  readonly runId: string;
  readonly callId: string;
  readonly result: JsonObject;
  /** reported: a result; timed_out: the deadline's injected TIMEOUT. */
  readonly status: Extract<ToolWaitStatus, "reported" | "timed_out">;
  /** Who reported: a person's email, "watchdog", "run:<sub-run id>", an API token's owner. */
  readonly reportedBy: string;
  /** A sub-run's result: the join's response edge names the sub-run. */
  readonly fromRunId?: string;
}

export type ReportOutcome =
  /** Recorded; `resumed`: it completed the waiting set and the run's turn is queued. */
  | { readonly applied: true; readonly resumed: boolean; readonly remaining: number }
  /** A duplicate or late report, acknowledged without effect: who got there first and when. */
  | { readonly applied: false; readonly status: Exclude<ToolWaitStatus, "waiting">; readonly reportedBy: string | null; readonly reportedAt: string | null }
  /** The run has no such call. */
  | { readonly applied: false; readonly status: "unknown" };

/**
 * Applies one report to a waiting call (003 section 3.4), inside the caller's transaction: the
 * wait moves from waiting once (compare-and-swap: of a report and its deadline's timeout exactly
 * one wins), the result enters the run's ledger under the call's key (where the resumed turn's
 * replay reads it as the tool's result), the waiting count and deadline follow, and a report
 * message is written with its edge: due when it completes the waiting set, done otherwise.
 */
export async function applyReport(tx: SqlExecutor, d: SqlDialect, report: ReportInput): Promise<ReportOutcome> {
  if (report.status === "reported") {
    // Past its deadline by the database's clock the call has timed out, whether or not the
    // watchdog has swept yet (no worker may be running): the timeout is applied and this report is late.
    const [overdue] = await tx.query<{ tool: string }>(`SELECT "tool" FROM "ToolWait" WHERE "id" = ? AND "runId" = ? AND "status" = 'waiting' AND "deadlineAt" < ${d.now}`, [report.callId, report.runId]);
    if (overdue) await applyReport(tx, d, { runId: report.runId, callId: report.callId, result: timeoutResult(overdue.tool), status: "timed_out", reportedBy: "watchdog" });
  }
  const changed = await tx.execute(
    `UPDATE "ToolWait" SET "status" = ?, "result" = ?, "reportedBy" = ?, "reportedAt" = ${d.now} WHERE "id" = ? AND "runId" = ? AND "status" = 'waiting'`,
    [report.status, d.json(report.result), report.reportedBy.slice(0, 320), report.callId, report.runId],
  );
  const [wait] = await tx.query<{ callKey: string; tool: string; status: ToolWaitStatus; reportedBy: string | null; reportedAt: unknown }>(
    `SELECT "callKey", "tool", "status", "reportedBy", ${d.provider === "postgres" ? `to_char("reportedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `replace("reportedAt", '+00:00', 'Z')`} AS "reportedAt" FROM "ToolWait" WHERE "id" = ? AND "runId" = ?`,
    [report.callId, report.runId],
  );
  if (!wait) return { applied: false, status: "unknown" };
  if (changed !== 1) return { applied: false, status: wait.status as Exclude<ToolWaitStatus, "waiting">, reportedBy: wait.reportedBy, reportedAt: wait.reportedAt === null ? null : String(wait.reportedAt) };
  const [last] = await tx.query<{ seq: number | null; epoch: number | null }>(`SELECT (SELECT MAX("seq") FROM "LedgerEntry" WHERE "runId" = ?) AS "seq", (SELECT "epoch" FROM "Run" WHERE "id" = ?) AS "epoch"`, [
    report.runId,
    report.runId,
  ]);
  await insertLedger(tx, d, report.runId, Number(last?.epoch ?? 0), [
    { seq: Number(last?.seq ?? 0) + 1, actor: report.reportedBy.slice(0, 320), type: "action_result", payload: report.result, callKey: `result:${wait.callKey}` },
  ]);
  const remaining = await refreshWaitingCount(tx, d, report.runId);
  await insertMessage(tx, d, report.runId, "report", { callId: report.callId, status: report.status }, { status: remaining === 0 ? "pending" : "done", edge: { callId: report.callId, fromRunId: report.fromRunId ?? null, detail: { tool: wait.tool, by: report.reportedBy.slice(0, 320) } } });
  if (report.fromRunId) await insertEdge(tx, d, report.runId, { primitive: "join", phase: "response", kind: "workflow", fromRunId: report.fromRunId, callId: report.callId });
  return { applied: true, resumed: remaining === 0, remaining };
}

/** The run's waiting count and resume deadline, from its waiting set (the earliest deadline of what still waits). */
async function refreshWaitingCount(tx: SqlExecutor, d: SqlDialect, runId: string): Promise<number> {
  await tx.execute(
    `UPDATE "Run" SET "waitingToolCount" = (SELECT COUNT(*) FROM "ToolWait" w WHERE w."runId" = ? AND w."status" = 'waiting'),
       "resumeDeadline" = (SELECT MIN(w."deadlineAt") FROM "ToolWait" w WHERE w."runId" = ? AND w."status" = 'waiting'), "updatedAt" = ${d.now} WHERE "id" = ?`,
    [runId, runId, runId],
  );
  const [row] = await tx.query<{ count: number }>(`SELECT "waitingToolCount" AS "count" FROM "Run" WHERE "id" = ?`, [runId]);
  return Number(row?.count ?? 0);
}

/**
 * Records the calls a suspending turn waits for (003 section 3.3), in its commit: the waiting set
 * (a call already recorded keeps its row: a turn that suspends again on the same calls changes
 * nothing), a tool_call edge for each new one, a queued sub-run for each new workflow call, and
 * the run's count and deadline. A call whose sub-run cannot start is answered at once with the
 * reason, as data.
 */
export async function insertWaits(tx: SqlExecutor, d: SqlDialect, runId: string, waits: readonly ToolWaitRequest[]): Promise<void> {
  for (const wait of waits) {
    const callId = waitIdOf(runId, wait.key);
    const inserted = await tx.execute(
      `INSERT INTO "ToolWait" ("id", "runId", "callKey", "stepName", "attempt", "tool", "kind", "input", "question", "resultSchema", "workflow", "status", "deadlineAt", "createdAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'waiting', ${d.later.sql}, ${d.now}) ON CONFLICT DO NOTHING`,
      [
        callId,
        runId,
        wait.key,
        wait.stepName,
        wait.attempt,
        wait.tool,
        wait.kind,
        d.json(wait.input),
        wait.question ?? null,
        wait.resultSchema === undefined ? null : d.json(wait.resultSchema),
        wait.workflow ?? null,
        d.later.param(wait.deadlineAfterMs),
      ],
    );
    if (inserted !== 1) continue;
    await insertEdge(tx, d, runId, { primitive: "tool_call", phase: "request", kind: wait.kind, callId, detail: { tool: wait.tool, step: wait.stepName, attempt: wait.attempt } });
    if (wait.kind === "workflow") await startSubRun(tx, d, runId, callId, wait);
  }
  await refreshWaitingCount(tx, d, runId);
}

async function startSubRun(tx: SqlExecutor, d: SqlDialect, parentRunId: string, callId: string, wait: ToolWaitRequest): Promise<void> {
  const refuse = (message: string) =>
    applyReport(tx, d, { runId: parentRunId, callId, status: "reported", reportedBy: "dualstate", result: { error: true, code: SUB_RUN_FAILED_CODE, message } });
  if ((await depthOf(tx, parentRunId)) >= MAX_SUB_RUN_DEPTH) {
    await refuse(`Not started: sub-runs nest at most ${MAX_SUB_RUN_DEPTH} deep, and this run is at the limit (does workflow "${wait.workflow}" call itself?)`);
    return;
  }
  const childRunId = timeOrderedId();
  // INSERT … SELECT gives its parameters no column types: PostgreSQL needs them spelled out.
  const [json, queued] = d.provider === "postgres" ? ["?::jsonb", `'queued'::"RunStatus"`] : ["?", "'queued'"];
  // The sub-run generates as its parent does (a replayed run's sub-runs replay from the same cassette),
  // and was started by whoever started its parent (a quorum may refuse them approving it).
  const created = await tx.execute(
    `INSERT INTO "Run" ("id", "workflowVersionId", "specification", "status", "workflowState", "contextValues", "generatorOverride", "parentRunId", "parentCallId", "startedBy", "createdAt", "updatedAt")
     SELECT ?, v."id", ?, ${queued}, ${json}, ${json}, p."generatorOverride", p."id", ?, p."startedBy", ${d.now}, ${d.now}
     FROM "WorkflowVersion" v JOIN "Workflow" w ON w."id" = v."workflowId" JOIN "Run" p ON p."id" = ?
     WHERE w."name" = ? AND w."archivedAt" IS NULL ORDER BY v."version" DESC LIMIT 1`,
    [childRunId, wait.specification ?? "", d.json(initialWorkflowState), d.json({}), callId, parentRunId, wait.workflow ?? ""],
  );
  if (created !== 1) {
    await refuse(`Not started: there is no workflow named ${JSON.stringify(wait.workflow)} (or it is archived)`);
    return;
  }
  await tx.execute(`UPDATE "ToolWait" SET "childRunId" = ? WHERE "id" = ?`, [childRunId, callId]);
  await insertEdge(tx, d, childRunId, { primitive: "join", phase: "request", kind: "workflow", fromRunId: parentRunId, callId });
  await insertMessage(tx, d, childRunId, "start", {}, { edge: { fromRunId: parentRunId, callId } });
}

/** How many parents above `runId` (bounded: the walk stops past the limit). */
async function depthOf(tx: SqlExecutor, runId: string): Promise<number> {
  let depth = 0;
  for (let id: string | null = runId; depth <= MAX_SUB_RUN_DEPTH; depth++) {
    const rows: { parentRunId: string | null }[] = await tx.query(`SELECT "parentRunId" FROM "Run" WHERE "id" = ?`, [id]);
    id = rows[0]?.parentRunId ?? null;
    if (id === null) return depth;
  }
  return depth;
}

/**
 * A run that ended leaves nothing waiting: its open calls are cancelled (a late report is then
 * acknowledged without effect), and each of its sub-runs that has not ended gets a cancel message
 * that replaces whatever else it had queued.
 */
export async function closeWaits(tx: SqlExecutor, d: SqlDialect, runId: string, reason: string): Promise<void> {
  await tx.execute(`UPDATE "ToolWait" SET "status" = 'cancelled', "reportedAt" = ${d.now}, "reportedBy" = 'dualstate' WHERE "runId" = ? AND "status" = 'waiting'`, [runId]);
  await tx.execute(`UPDATE "Run" SET "waitingToolCount" = 0 WHERE "id" = ?`, [runId]);
  const children = await tx.query<{ id: string }>(`SELECT "id" FROM "Run" WHERE "parentRunId" = ? AND "status" NOT IN ${sqlList(TERMINAL_RUN_STATUSES)} LIMIT 1000`, [runId]);
  for (const child of children) {
    // The cancel goes first: a sub-run not started yet must not start now.
    await tx.execute(`UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ${d.now} WHERE "runId" = ? AND "kind" <> 'cancel' AND "status" IN ('pending', 'deferred')`, [child.id]);
    await insertMessage(tx, d, child.id, "cancel", { reason }, { edge: { fromRunId: runId } });
  }
}

/** The watchdog's: waits past their deadline by the database's clock. */
export async function overdueWaits(tx: SqlExecutor, d: SqlDialect): Promise<{ runId: string; callId: string; tool: string; at: string }[]> {
  return tx.query(`SELECT "runId", "id" AS "callId", "tool", ${d.nowIso} AS "at" FROM "ToolWait" WHERE "status" = 'waiting' AND "deadlineAt" < ${d.now} ORDER BY "deadlineAt" LIMIT 100`);
}

/** The TIMEOUT result a deadline injects: data the policy reads like any tool error. */
export function timeoutResult(tool: string): JsonObject {
  return { error: true, code: TIMEOUT_ERROR_CODE, message: `No result for ${tool} before its deadline: the call timed out` };
}
