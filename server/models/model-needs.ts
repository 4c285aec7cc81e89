/**
 * What models a workflow version needs to run: one entry per generator that calls a model and
 * per llm_judge guard. A replay generator (the step's own, or the run's replay override) needs
 * none; under a replay override the judges answer from the cassette too; code steps need none. Reads the stored definition as plain data.
 */
import type { WorkflowDefinition } from "../workflows/definition";
import type { ModelRequest } from "./resolve-model";

export interface ModelNeed extends ModelRequest {
  readonly step: string;
  /** "generator" for the step's generator, "llm_judge" for a judge among its guards. */
  readonly use: "generator" | "llm_judge";
}

type PlainObject = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is PlainObject => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

function judgeNeeds(guards: unknown, step: string, depth = 0): ModelNeed[] {
  // Guard trees are bounded by the document limits; the depth cap only stops a hand-made cycle.
  if (!Array.isArray(guards) || depth > 32) return [];
  return guards.flatMap((guard): ModelNeed[] => {
    if (!isObject(guard)) return [];
    if (guard.kind === "llm_judge") return [{ step, use: "llm_judge", model: text(guard.model) }];
    if (guard.kind === "all_of" || guard.kind === "any_of") return judgeNeeds(guard.guards, step, depth + 1);
    return [];
  });
}

/** Every model the run would call, in step order. `generatorOverride` is the run's (a replay cassette). */
export function modelNeedsOf(definition: WorkflowDefinition, generatorOverride?: unknown): ModelNeed[] {
  // Stored definitions are read as they are; anything that is not a step is skipped here (the compile refuses it).
  const steps: unknown[] = Array.isArray((definition as { steps?: unknown }).steps) ? (definition.steps as unknown[]) : [];
  return steps.flatMap((step): ModelNeed[] => {
    if (!isObject(step) || step.type === "code") return [];
    const name = text(step.name) ?? "(unnamed)";
    const generator: unknown = generatorOverride ?? step.generator ?? { kind: "llm" };
    const needs: ModelNeed[] = [];
    if (isObject(generator) && generator.kind !== "replay") needs.push({ step: name, use: "generator", endpoint: text(generator.endpoint), model: text(generator.model) });
    const replayed = isObject(generatorOverride) && generatorOverride.kind === "replay";
    if (step.type === "action_pair" && !replayed) needs.push(...judgeNeeds(step.guards, name));
    return needs;
  });
}
