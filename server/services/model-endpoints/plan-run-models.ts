import type { RunModelPlan } from "@/server/models/run-model-plan";
import type { Db } from "@/server/persistence/db";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { notFound } from "../errors";
import { planModelsOf } from "../runs/run-model-check";

/**
 * For the Run dialog: the models a run of the workflow's version (the latest by default) would
 * call, with or without a replay cassette, or why it cannot start.
 */
export async function planRunModelsFor(db: Db, input: { workflowId: string; version?: number; replay: boolean }): Promise<RunModelPlan & { version: number }> {
  const version = await db.workflowVersion.findFirst({
    where: { workflowId: input.workflowId, ...(input.version !== undefined ? { version: input.version } : {}) },
    orderBy: { version: "desc" },
    select: { version: true, definition: true },
  });
  if (!version) throw notFound("Workflow version", `${input.workflowId} v${input.version ?? "latest"}`);
  // The cassette's content does not change which models are needed, only that generators replay.
  const plan = await planModelsOf(db, version.definition as unknown as WorkflowDefinition, input.replay ? { kind: "replay", cassette: { steps: {} } } : undefined);
  return { ...plan, version: version.version };
}
