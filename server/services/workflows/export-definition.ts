import type { Db } from "@/server/persistence/db";
import { toYaml } from "@/server/workflows/document";
import { notFound } from "../errors";

/**
 * The stored definition of a workflow version as a YAML document (`workflow:` at its root),
 * which `validateWorkflowDocument` reads back to the same definition. The latest version unless
 * `version` is given.
 * @throws ServiceError NOT_FOUND naming the workflow, or the workflow and the version.
 */
export async function exportWorkflowDefinition(db: Db, name: string, version?: number): Promise<string> {
  const workflow = await db.workflow.findUnique({ where: { name }, select: { id: true } });
  if (!workflow) throw notFound("Workflow", name);
  const stored = await db.workflowVersion.findFirst({
    where: { workflowId: workflow.id, ...(version === undefined ? {} : { version }) },
    orderBy: { version: "desc" },
    select: { definition: true },
  });
  if (!stored) throw notFound(`Version ${version ?? "(latest)"} of workflow`, name);
  return toYaml({ workflow: stored.definition });
}
