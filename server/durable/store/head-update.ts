import type { SqlDialect, SqlValue } from "../../persistence/sql/sql-client";
import type { ClaimedTurn, HeadPatch } from "../types";

/**
 * The condition of every write of a turn: the run is still held by this turn (epoch and turn id)
 * and its lease has not expired by the database's clock. A turn that cannot show that writes nothing.
 */
export function heldBy(d: SqlDialect, alias = ""): string {
  const column = (name: string) => (alias ? `${alias}."${name}"` : `"${name}"`);
  return `${column("id")} = ? AND ${column("epoch")} = ? AND ${column("activeTurnId")} = ? AND ${column("leaseExpiresAt")} > ${d.now}`;
}

export function heldByParams(turn: ClaimedTurn): SqlValue[] {
  return [turn.runId, turn.epoch, turn.turnId];
}

/** The compare-and-swap of a commit: changes 1 row when this turn still holds a valid lease, 0 otherwise. */
export function headUpdate(d: SqlDialect, turn: ClaimedTurn, head: HeadPatch, release: boolean): { sql: string; params: SqlValue[] } {
  const sets: string[] = [`"updatedAt" = ${d.now}`];
  const params: SqlValue[] = [];
  const set = (column: string, value: SqlValue) => {
    sets.push(`"${column}" = ?`);
    params.push(value);
  };
  if (head.status !== undefined) set("status", head.status);
  if (head.workflowState !== undefined) set("workflowState", d.json(head.workflowState));
  if (head.currentStep !== undefined) set("currentStep", head.currentStep);
  if (head.currentState !== undefined) set("currentState", head.currentState);
  if (head.attemptIncrement) {
    sets.push(`"attemptCount" = "attemptCount" + ?`);
    params.push(head.attemptIncrement);
  }
  if (head.stepsCompletedIncrement) {
    sets.push(`"stepsCompleted" = "stepsCompleted" + ?`);
    params.push(head.stepsCompletedIncrement);
  }
  if (head.finalResult !== undefined) set("finalResult", d.json(head.finalResult));
  if (head.startedAt !== undefined) {
    sets.push(`"startedAt" = COALESCE("startedAt", ?)`);
    params.push(d.timestamp(head.startedAt));
  }
  if (head.finishedAt !== undefined) set("finishedAt", d.timestamp(head.finishedAt));
  if (head.resumeDeadline === null) sets.push(`"resumeDeadline" = NULL`);
  else if (head.resumeDeadline !== undefined) {
    sets.push(`"resumeDeadline" = ${d.later.sql}`);
    params.push(d.later.param(head.resumeDeadline.afterMs));
  }
  if (head.watchdogNote !== undefined) set("watchdogNote", head.watchdogNote);
  // In the head's own statement: the totals move exactly with the ledger rows of the calls they count.
  if (head.usageIncrement) {
    sets.push(`"promptTokens" = "promptTokens" + ?`, `"completionTokens" = "completionTokens" + ?`, `"costUsd" = "costUsd" + ?`);
    params.push(head.usageIncrement.promptTokens, head.usageIncrement.completionTokens, head.usageIncrement.costUsd);
  }
  if (release) sets.push(`"activeTurnId" = NULL`, `"leaseOwner" = NULL`, `"leaseExpiresAt" = NULL`);
  params.push(...heldByParams(turn));
  return { sql: `UPDATE "Run" SET ${sets.join(", ")} WHERE ${heldBy(d)}`, params };
}
