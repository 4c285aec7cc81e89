import type { JsonObject } from "@/server/engine";
import type { Db } from "@/server/persistence/db";
import { notFound, ServiceError } from "../errors";

/** A waiting tool call as reports and answers need it. */
export interface LoadedWait {
  readonly id: string;
  readonly runId: string;
  readonly kind: string;
  readonly tool: string;
  readonly stepName: string;
  readonly status: string;
  readonly childRunId: string | null;
  readonly resultSchema: JsonObject | null;
}

const SELECT = { id: true, runId: true, kind: true, tool: true, stepName: true, status: true, childRunId: true, resultSchema: true } as const;

function asSchema(value: unknown): JsonObject | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

/**
 * The call `callId` (of run `runId`, when given), or NOT_FOUND naming what is missing: the run,
 * or the call on that run (a call id of another run is not found either: a report names both).
 */
export async function loadWait(db: Db, callId: string, runId?: string): Promise<LoadedWait> {
  const wait = await db.toolWait.findUnique({ where: { id: callId }, select: SELECT });
  if (wait && (runId === undefined || wait.runId === runId)) return { ...wait, resultSchema: asSchema(wait.resultSchema) };
  if (runId !== undefined && !(await db.run.findUnique({ where: { id: runId }, select: { id: true } }))) throw notFound("Run", runId);
  throw runId === undefined ? notFound("Tool call", callId) : new ServiceError("NOT_FOUND", `Run "${runId}" has no tool call "${callId}"`);
}
