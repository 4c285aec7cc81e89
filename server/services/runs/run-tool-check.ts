import type { Db } from "@/server/persistence/db";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { notConfigured } from "../errors";

/** A step's agent tool that starts a run of another workflow. */
interface SubWorkflowUse {
  readonly step: string;
  readonly tool: string;
  readonly workflow: string;
}

/** Whether a run's generator override keeps the steps' agents: a replay runs them on the cassette's turns. */
function keepsAgents(generatorOverride: unknown): boolean {
  return generatorOverride === undefined || (typeof generatorOverride === "object" && generatorOverride !== null && (generatorOverride as { kind?: unknown }).kind === "replay");
}

/**
 * The workflow tools the steps' own agent generators list. A replayed run keeps its agents and
 * their tools (generators/replay/cassette.ts), so they count then too; any other override would
 * replace the agents.
 */
export function subWorkflowUses(definition: WorkflowDefinition, generatorOverride: unknown): SubWorkflowUse[] {
  if (!keepsAgents(generatorOverride) || !definition.tools) return [];
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

/** How many workflows the search for a way back to the run's own workflow reads, at most. */
export const MAX_SUB_WORKFLOW_SEARCH = 64;

/**
 * Refuses a run whose agent steps may start a sub-run of a workflow that does not exist or is
 * archived, before anything is stored: the run would otherwise wait and fail at the call, or
 * start a sub-run no worker may run. Also refuses one whose sub-workflows' tools (their latest
 * versions) lead back to its own workflow: sub-runs would start one another without end. The
 * validator refuses a tool naming its own workflow; a longer cycle spans documents.
 * @throws ServiceError NOT_CONFIGURED naming the step, the tool and the workflow.
 */
export async function refuseMissingSubWorkflows(db: Db, workflowVersionId: string, generatorOverride: unknown): Promise<void> {
  const version = await db.workflowVersion.findUnique({ where: { id: workflowVersionId }, select: { definition: true, workflow: { select: { name: true } } } });
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
  const latest = latestDefinitions(db);
  for (const use of uses) {
    const cycle = await wayBack(version.workflow.name, use.workflow, latest);
    if (cycle) {
      throw notConfigured(`The run cannot start: Step "${use.step}" has tool "${use.tool}", which runs workflow ${cycle.map((name) => `"${name}"`).join(", whose tools run ")}: sub-runs would start one another without end`);
    }
  }
}

/** The latest stored definition of a workflow by name, each read once. */
function latestDefinitions(db: Db): (name: string) => Promise<WorkflowDefinition | undefined> {
  const cache = new Map<string, Promise<WorkflowDefinition | undefined>>();
  return (name) => {
    let found = cache.get(name);
    if (!found) {
      found = db.workflowVersion
        .findFirst({ where: { workflow: { name } }, orderBy: { version: "desc" }, select: { definition: true } })
        .then((row) => (row ? (row.definition as unknown as WorkflowDefinition) : undefined));
      cache.set(name, found);
    }
    return found;
  };
}

/** The chain of workflow names from `start` back to `root` through workflow tools, breadth first and bounded, or undefined. */
async function wayBack(root: string, start: string, latest: (name: string) => Promise<WorkflowDefinition | undefined>): Promise<string[] | undefined> {
  const queue: string[][] = [[start]];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_SUB_WORKFLOW_SEARCH) {
    const path = queue.shift()!;
    const name = path.at(-1)!;
    if (seen.has(name)) continue;
    seen.add(name);
    const definition = await latest(name);
    if (!definition) continue;
    for (const use of subWorkflowUses(definition, undefined)) {
      if (use.workflow === root) return [...path, root];
      queue.push([...path, use.workflow]);
    }
  }
  return undefined;
}
