import { DECISION_KEY_SUFFIX } from "@/server/durable/decision";
import { FORK_LEDGER_KEY } from "@/server/generators/fork/edited-attempt";
import type { Db } from "@/server/persistence/db";
import { invalidInput, notFound } from "../../errors";
import { enqueueRun, type SeededLedgerEntry } from "../enqueue-run";
import { findForkPoint } from "./find-fork-point";

export interface ForkRunInput {
  /** The run to fork. */
  readonly id: string;
  /** The attempt (its artifact) the new run generates anew. */
  readonly artifactId: string;
  /** The feedback that attempt receives instead of the recorded one. */
  readonly feedback?: string;
  /** The prompt that attempt is generated from, verbatim. */
  readonly prompt?: string;
}

/**
 * Starts a new run of the same workflow version, specification, variables and generator that
 * reuses everything the original recorded before the chosen attempt and generates that attempt
 * anew with the person's edit. The reuse is the ledger replay of durable runs (002 section 7):
 * the new run's ledger is seeded with the original's recorded call results (model, tool, replay)
 * and escalation decisions from before the attempt, so its worker re-executes the machine,
 * reads those results back instead of calling anything, re-runs the guards on them, and calls
 * the generator for real from the forked attempt on. Its first ledger entry, `run.forked`,
 * names the original and carries the edit, which the worker applies (generators/fork).
 */
export async function forkRun(db: Db, input: ForkRunInput, forkedBy: string): Promise<{ id: string }> {
  const original = await db.run.findUnique({ where: { id: input.id }, select: { workflowVersionId: true, specification: true, contextValues: true, generatorOverride: true } });
  if (!original) throw notFound("Run", input.id);
  if (!original.workflowVersionId) throw invalidInput("id", `run "${input.id}" has no workflow version to run again`);
  const point = await findForkPoint(db, input.id, input.artifactId);

  const reused = await db.ledgerEntry.findMany({
    where: {
      runId: input.id,
      seq: { lt: point.firstSeq },
      OR: [{ callKey: { startsWith: "result:" } }, { callKey: { startsWith: "event:", endsWith: DECISION_KEY_SUFFIX } }],
    },
    orderBy: { seq: "asc" },
    select: { actor: true, type: true, payload: true, callKey: true },
  });
  const forked: SeededLedgerEntry = {
    actor: "human",
    type: "run.forked",
    callKey: FORK_LEDGER_KEY,
    payload: {
      fromRunId: input.id,
      artifactId: input.artifactId,
      attemptKey: point.attemptKey,
      step: point.stepName,
      attempt: point.attempt,
      feedback: input.feedback ?? null,
      prompt: input.prompt ?? null,
      reusedResults: reused.length,
      forkedBy,
    },
  };
  return enqueueRun(db, {
    workflowVersionId: original.workflowVersionId,
    specification: original.specification,
    contextValues: (original.contextValues ?? {}) as Record<string, boolean | number | string>,
    generatorOverride: original.generatorOverride ?? undefined,
    // The fork is a new run: who forked it started it.
    startedBy: forkedBy,
    fork: {
      fromRunId: input.id,
      attemptKey: point.attemptKey,
      ledger: [forked, ...reused.map((row) => ({ actor: row.actor, type: row.type, payload: row.payload as Record<string, unknown>, callKey: row.callKey }))],
    },
  });
}
