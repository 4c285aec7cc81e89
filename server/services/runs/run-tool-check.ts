import type { Db } from "@/server/persistence/db";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { notConfigured } from "../errors";

/** A step's agent tool that starts a run of another workflow. */
interface SubWorkflowUse {
  readonly step: string;
  readonly tool: string;
  readonly workflow: string;
}

/** The workflow tools the steps' own agent generators list (an override replaces those generators, so none then). */
export function subWorkflowUses(definition: WorkflowDefinition, generatorOverride: unknown): SubWorkflowUse[] {
  if (generatorOverride !== undefined || !definition.tools) return [];
  const tools = definition.tools;
  return definition.steps.flatMap((step) => {
    const generator = step.generator;
    if (generator?.kind !== "agent" || !generator.tools) return [];
    return generator.tools.flatMap((tool) => {
      const declaration = Object.hasOwn(tools, tool) ? tools[tool] : undefined;
      return declaration?.kind === "workflow" ? [{ step: step.name, tool, workflow: declaration.workflow }] : [];
    });
  });
}

/**
 * Refuses a run whose agent steps may start a sub-run of a workflow that does not exist or is
 * archived, before anything is stored: the run would otherwise wait and fail at the call, or
 * start a sub-run no worker may run.
 * @throws ServiceError NOT_CONFIGURED naming the step, the tool and the workflow.
 */
export async function refuseMissingSubWorkflows(db: Db, workflowVersionId: string, generatorOverride: unknown): Promise<void> {
  const version = await db.workflowVersion.findUnique({ where: { id: workflowVersionId }, select: { definition: true } });
  // An unknown version is refused by the run's foreign key when it is stored.
  if (!version) return;
  const uses = subWorkflowUses(version.definition as unknown as WorkflowDefinition, generatorOverride);
  if (uses.length === 0) return;
  const names = [...new Set(uses.map((use) => use.workflow))];
  const found = await db.workflow.findMany({ where: { name: { in: names } }, select: { name: true, archivedAt: true } });
  const byName = new Map(found.map((workflow) => [workflow.name, workflow]));
  for (const use of uses) {
    const workflow = byName.get(use.workflow);
    const where = `Step "${use.step}" has tool "${use.tool}", which runs workflow "${use.workflow}"`;
    if (!workflow) throw notConfigured(`The run cannot start: ${where}, and there is no such workflow (save it first, or change the tool)`);
    if (workflow.archivedAt !== null) throw notConfigured(`The run cannot start: ${where}, which is archived (unarchive it, or change the tool)`);
  }
}
