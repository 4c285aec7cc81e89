import type { Db } from "@/server/persistence/db";
import { invalidInput, notFound } from "../errors";
import { enqueueRun } from "./enqueue-run";

/** Starts a new run like an earlier one: the same pinned version, specification, variables and generator; `startedBy` is whoever starts it again. */
export async function rerunRun(db: Db, input: { id: string }, startedBy: string): Promise<{ id: string }> {
  const run = await db.run.findUnique({ where: { id: input.id }, select: { workflowVersionId: true, specification: true, contextValues: true, generatorOverride: true } });
  if (!run) throw notFound("Run", input.id);
  if (!run.workflowVersionId) throw invalidInput("id", `run "${input.id}" has no workflow version to run again`);
  return enqueueRun(db, {
    workflowVersionId: run.workflowVersionId,
    specification: run.specification,
    contextValues: (run.contextValues ?? {}) as Record<string, boolean | number | string>,
    generatorOverride: run.generatorOverride ?? undefined,
    startedBy,
  });
}
