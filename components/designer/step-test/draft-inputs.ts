import { isPlainObject, parseDraft, workflowOf, type Json } from "../workflow-draft";

export type VariableValue = boolean | number | string;

/** A declared context variable with the value a run starts with. */
export interface DraftVariable {
  readonly name: string;
  readonly value: VariableValue;
}

/** A dependency of the step: the guard id it names and the name its guard and prompt see ("test"). */
export interface DraftDependency {
  readonly guardId: string;
  readonly name: string;
}

/** What the step test form starts from: the draft's specification, variables and the step's dependencies. */
export interface DraftInputs {
  readonly specification: string;
  readonly variables: readonly DraftVariable[];
  readonly dependencies: readonly DraftDependency[];
  /** The step's language, else the workflow's, for highlighting the output. */
  readonly language: string | null;
}

const isVariableValue = (value: Json | undefined): value is VariableValue => typeof value === "boolean" || typeof value === "number" || typeof value === "string";

/** The guard id without its "g_" prefix, as the engine hands dependencies over (g_test → test). */
export function dependencyNameOf(guardId: string): string {
  return guardId.startsWith("g_") ? guardId.slice(2) : guardId;
}

/** Read tolerantly from the draft text: the server validates the draft when the test runs. */
export function draftInputs(document: string, stepName: string): DraftInputs {
  const parsed = parseDraft(document);
  if (!parsed.ok) return { specification: "", variables: [], dependencies: [], language: null };
  const workflow = workflowOf(parsed.draft);
  const context = isPlainObject(workflow.context) ? workflow.context : {};
  const steps = Array.isArray(workflow.steps) ? workflow.steps : [];
  const step = steps.find((candidate) => isPlainObject(candidate) && candidate.name === stepName);
  const deps = isPlainObject(step) && Array.isArray(step.guard_artifact_deps) ? step.guard_artifact_deps : [];
  return {
    specification: typeof workflow.specification === "string" ? workflow.specification : "",
    variables: Object.entries(context).flatMap(([name, value]) => (isVariableValue(value) ? [{ name, value }] : [])),
    dependencies: deps.flatMap((guardId) => (typeof guardId === "string" ? [{ guardId, name: dependencyNameOf(guardId) }] : [])),
    language: [isPlainObject(step) ? step.language : undefined, workflow.language].find((value): value is string => typeof value === "string") ?? null,
  };
}
