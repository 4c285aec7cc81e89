import { getEnv } from "@/server/env";
import { loadModelDirectory, type ModelSettingsEnv } from "@/server/models/load-from-prisma";
import { planRunModels, type RunModelPlan } from "@/server/models/run-model-plan";
import type { Db } from "@/server/persistence/db";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { notConfigured } from "../errors";

/** Which endpoint and model each step of a run of this definition would call (the Run dialog, run starts). */
export async function planModelsOf(db: Db, definition: WorkflowDefinition, generatorOverride: unknown, settings: ModelSettingsEnv = getEnv()): Promise<RunModelPlan> {
  return planRunModels(definition, generatorOverride, await loadModelDirectory(db, settings));
}

/**
 * Refuses a run whose workflow version needs a model that is not configured, before anything is
 * stored: a configuration error is the operator's to fix, never a run that fails at its first step.
 * @throws ServiceError NOT_CONFIGURED naming the step and the model.
 */
export async function refuseUnconfiguredModels(db: Db, workflowVersionId: string, generatorOverride: unknown, settings: ModelSettingsEnv = getEnv()): Promise<void> {
  const version = await db.workflowVersion.findUnique({ where: { id: workflowVersionId }, select: { definition: true } });
  // An unknown version is refused by the run's foreign key when it is stored.
  if (!version) return;
  const plan = await planModelsOf(db, version.definition as unknown as WorkflowDefinition, generatorOverride, settings);
  if (plan.refusal) throw notConfigured(`The run cannot start: ${plan.refusal}`);
}
