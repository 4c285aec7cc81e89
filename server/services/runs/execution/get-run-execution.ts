import type { Db } from "@/server/persistence/db";
import type { RunStatus } from "@/server/durable/lifecycle";
import { notFound } from "../../errors";
import { listExecutionEdges, type RunExecutionEdges } from "./execution-edges";
import { readRunFamily, type RunFamily } from "./run-family";
import { listToolWaits, type RunToolWaits } from "./tool-waits";
import { listTurns, type RunTurns } from "./turn-records";
import { listWatchdogActions, type WatchdogActions } from "./watchdog-actions";

/** How a run executes across turns and runs (003): what it waits for, its turns, its edges, its family, the watchdog's actions. */
export interface RunExecution {
  readonly runId: string;
  readonly status: RunStatus;
  /** Run.waitingToolCount: calls the run still waits for before it resumes. */
  readonly waitingToolCount: number;
  readonly waits: RunToolWaits;
  readonly turns: RunTurns;
  readonly edges: RunExecutionEdges;
  readonly family: RunFamily;
  readonly watchdog: WatchdogActions;
}

/** Every list is bounded (its newest rows, with the total). Fails with NOT_FOUND for an unknown run. */
export async function getRunExecution(db: Db, runId: string): Promise<RunExecution> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true, status: true, waitingToolCount: true, parentRunId: true, parentCallId: true, watchdogNote: true } });
  if (!run) throw notFound("Run", runId);
  const [waits, turns, edges, family, watchdog] = await Promise.all([listToolWaits(db, run.id), listTurns(db, run.id), listExecutionEdges(db, run.id), readRunFamily(db, run), listWatchdogActions(db, run)]);
  return { runId: run.id, status: run.status, waitingToolCount: run.waitingToolCount, waits, turns, edges, family, watchdog };
}
