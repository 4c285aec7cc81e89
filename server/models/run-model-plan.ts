/**
 * Which endpoint and model each step of a run will call, or why it cannot: what the Run dialog
 * shows and what every run start checks before anything is queued.
 */
import type { WorkflowDefinition } from "../workflows/definition";
import type { ModelDirectory } from "./model-directory";
import { modelNeedsOf, type ModelNeed } from "./model-needs";
import { resolveModel } from "./resolve-model";

export type PlannedModel =
  | (ModelNeed & { readonly ok: true; readonly endpointName: string; readonly model: string })
  | (ModelNeed & { readonly ok: false; readonly reason: string });

export interface RunModelPlan {
  readonly models: readonly PlannedModel[];
  /** The first step that cannot run, in words; absent when every model is configured. */
  readonly refusal?: string;
}

export function describeNeed(need: ModelNeed): string {
  return need.use === "generator" ? `Step "${need.step}"` : `The llm_judge guard of step "${need.step}"`;
}

export function planRunModels(definition: WorkflowDefinition, generatorOverride: unknown, directory: ModelDirectory): RunModelPlan {
  const models = modelNeedsOf(definition, generatorOverride).map((need): PlannedModel => {
    const resolution = resolveModel(directory, need);
    return resolution.ok ? { ...need, ok: true, endpointName: resolution.endpointName, model: resolution.client.model } : { ...need, ok: false, reason: resolution.reason };
  });
  const blocked = models.find((planned) => !planned.ok);
  return blocked && !blocked.ok ? { models, refusal: `${describeNeed(blocked)} ${blocked.reason}` } : { models };
}
