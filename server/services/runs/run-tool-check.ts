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
 * start a sub-run no worker may run. The same holds for the workflows those sub-runs may start
 * in turn (their latest versions). Also refuses one whose sub-workflows' tools lead back to a
 * workflow already on the way (its own, or one of its sub-workflows'): sub-runs would start one
 * another without end. The validator refuses a tool naming its own workflow; a longer cycle spans documents.
 * @throws ServiceError NOT_CONFIGURED naming the step, the tool and the chain of workflows.
 */
export async function refuseMissingSubWorkflows(db: Db, workflowVersionId: string, generatorOverride: unknown): Promise<void> {
  const version = await db.workflowVersion.findUnique({ where: { id: workflowVersionId }, select: { definition: true, workflow: { select: { name: true } } } });
  // An unknown version is refused by the run's foreign key when it is stored.
  if (!version) return;
  const uses = subWorkflowUses(version.definition as unknown as WorkflowDefinition, generatorOverride);
  if (uses.length === 0) return;
  const latest = latestDefinitions(db);
  for (const use of uses) {
    const found = await problemOnTheWay(version.workflow.name, use.workflow, latest);
    if (!found) continue;
    const chain = found.chain.map((name) => `"${name}"`).join(", whose tools run ");
    const where = `Step "${use.step}" has tool "${use.tool}", which runs workflow ${chain}`;
    switch (found.problem) {
      case "missing":
        throw notConfigured(`The run cannot start: ${where}, and there is no such workflow (save it first, or change the tool)`);
      case "archived":
        throw notConfigured(`The run cannot start: ${where}, which is archived (unarchive it, or change the tool)`);
      case "cycle":
        throw notConfigured(`The run cannot start: ${where}: sub-runs would start one another without end`);
    }
  }
}

interface StoredWorkflow {
  readonly definition: WorkflowDefinition | undefined;
  readonly archived: boolean;
}

/** A workflow by name (undefined: none), with its latest stored definition, each read once. */
function latestDefinitions(db: Db): (name: string) => Promise<StoredWorkflow | undefined> {
  const cache = new Map<string, Promise<StoredWorkflow | undefined>>();
  return (name) => {
    let found = cache.get(name);
    if (!found) {
      found = db.workflow
        .findUnique({ where: { name }, select: { archivedAt: true, versions: { orderBy: { version: "desc" }, take: 1, select: { definition: true } } } })
        .then((row) => (row ? { definition: row.versions[0]?.definition as unknown as WorkflowDefinition | undefined, archived: row.archivedAt !== null } : undefined));
      cache.set(name, found);
    }
    return found;
  };
}

/**
 * What stops the sub-runs that start at `start`, breadth first through workflow tools and bounded:
 * the chain to a workflow that is missing or archived, or back to one already on it (`root` included).
 */
async function problemOnTheWay(root: string, start: string, latest: (name: string) => Promise<StoredWorkflow | undefined>): Promise<{ chain: string[]; problem: "missing" | "archived" | "cycle" } | undefined> {
  const queue: string[][] = [[start]];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_SUB_WORKFLOW_SEARCH) {
    const path = queue.shift()!;
    const name = path.at(-1)!;
    if (seen.has(name)) continue;
    seen.add(name);
    const workflow = await latest(name);
    if (!workflow) return { chain: path, problem: "missing" };
    if (workflow.archived) return { chain: path, problem: "archived" };
    if (!workflow.definition) continue;
    for (const use of subWorkflowUses(workflow.definition, undefined)) {
      if (use.workflow === root || path.includes(use.workflow)) return { chain: [...path, use.workflow], problem: "cycle" };
      queue.push([...path, use.workflow]);
    }
  }
  return undefined;
}
