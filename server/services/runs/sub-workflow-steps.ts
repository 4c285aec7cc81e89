import type { Db } from "@/server/persistence/db";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { MAX_SUB_WORKFLOW_SEARCH, subWorkflowUses } from "./run-tool-check";

/**
 * The step names of the workflows a replayed run's workflow tools may start (their latest
 * versions, followed through their own tools, at most MAX_SUB_WORKFLOW_SEARCH workflows): a
 * replayed sub-run answers from its parent's cassette, so the cassette may name those steps too.
 */
export async function subWorkflowStepNames(db: Db, definition: WorkflowDefinition): Promise<string[]> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const queue = subWorkflowUses(definition, undefined).map((use) => use.workflow);
  while (queue.length > 0 && seen.size < MAX_SUB_WORKFLOW_SEARCH) {
    const workflow = queue.shift()!;
    if (seen.has(workflow)) continue;
    seen.add(workflow);
    const row = await db.workflowVersion.findFirst({ where: { workflow: { name: workflow } }, orderBy: { version: "desc" }, select: { definition: true } });
    if (!row) continue;
    const sub = row.definition as unknown as WorkflowDefinition;
    for (const step of sub.steps ?? []) names.add(step.name);
    queue.push(...subWorkflowUses(sub, undefined).map((use) => use.workflow));
  }
  return [...names];
}
