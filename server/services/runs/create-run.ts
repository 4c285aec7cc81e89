import type { Db } from "@/server/persistence/db";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { parseBudgetSpec, type BudgetAction, type RunBudget } from "@/server/usage/budget";
import { invalidInput, notFound } from "../errors";
import { readBundledCassette } from "../examples/bundled-cassette";
import { enqueueRun } from "./enqueue-run";
import { readUploadedCassette } from "./read-uploaded-cassette";
import { subWorkflowStepNames } from "./sub-workflow-steps";

export interface CreateRunInput {
  workflowId: string;
  /** The workflow version to pin; the latest when absent. */
  version?: number;
  /** The task (Ψ); the workflow's own specification when absent. */
  specification?: string;
  /** Values for declared context variables. */
  variables?: Record<string, boolean | number | string>;
  /** "replay" runs the example's bundled cassette instead of a model; "configured" (default) uses the document's generators. */
  generator?: "configured" | "replay";
  /** A cassette's JSON text the user provides, replayed instead of the bundled one (implies "replay"). */
  cassette?: string;
  /** The run's own budget, in place of the workflow's (docs/usage-and-budgets.md). */
  budget?: { tokens?: number; usd?: number; onExceed?: BudgetAction };
}

/**
 * Starts a run of a stored workflow version: checks the input against the definition (the
 * specification, each variable's name and type, the replay cassette), then queues the run and
 * its start message for a worker, recording who started it. Returns at once; the run page follows it.
 */
export async function createRun(db: Db, input: CreateRunInput, startedBy: string): Promise<{ id: string; version: number }> {
  const workflow = await db.workflow.findUnique({ where: { id: input.workflowId }, select: { id: true, name: true } });
  if (!workflow) throw notFound("Workflow", input.workflowId);
  const version = await db.workflowVersion.findFirst({
    where: { workflowId: workflow.id, ...(input.version !== undefined ? { version: input.version } : {}) },
    orderBy: { version: "desc" },
    select: { id: true, version: true, definition: true },
  });
  if (!version) throw notFound("Version", `${workflow.name} v${input.version ?? "latest"}`);
  const definition = version.definition as unknown as WorkflowDefinition;

  const specification = input.specification ?? definition.specification;
  if (specification === undefined || specification.trim() === "") {
    throw invalidInput("specification", `must not be empty: workflow "${workflow.name}" declares no default specification`);
  }
  const contextValues: Record<string, boolean | number | string> = {};
  for (const [name, value] of Object.entries(input.variables ?? {})) {
    if (!Object.hasOwn(definition.context ?? {}, name)) {
      const declared = Object.keys(definition.context ?? {});
      throw invalidInput(`variables.${name}`, `not a context variable of "${workflow.name}" (declared: ${declared.length > 0 ? declared.join(", ") : "none"})`);
    }
    const expected = typeof definition.context[name];
    if (typeof value !== expected) throw invalidInput(`variables.${name}`, `must be a ${expected === "string" ? "text" : expected}, like its default`);
    contextValues[name] = value;
  }
  let generatorOverride: unknown;
  if (input.cassette !== undefined) {
    if (input.generator === "configured") throw invalidInput("cassette", 'replays with the replay generator only; choose "replay" or leave the cassette out');
    generatorOverride = { kind: "replay", cassette: readUploadedCassette(input.cassette, definition, await subWorkflowStepNames(db, definition)) };
  } else if (input.generator === "replay") {
    const cassette = readBundledCassette(workflow.name);
    if (!cassette) throw invalidInput("generator", `workflow "${workflow.name}" has no bundled replay cassette; use the configured model`);
    generatorOverride = { kind: "replay", cassette };
  }

  let budget: RunBudget | undefined;
  if (input.budget !== undefined) {
    const parsed = parseBudgetSpec(input.budget);
    if (!parsed.ok) throw invalidInput(parsed.errors[0]!.field, parsed.errors[0]!.message);
    budget = parsed.budget;
  }

  const { id } = await enqueueRun(db, { workflowVersionId: version.id, specification, contextValues, generatorOverride, startedBy, ...(budget ? { budget } : {}) });
  return { id, version: version.version };
}
