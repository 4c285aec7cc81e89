import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";

/** Every version of a workflow, newest first, with how many runs each pinned. */
export async function listWorkflowVersions(db: Db, name: string) {
  const workflow = await db.workflow.findUnique({ where: { name }, select: { id: true, name: true, description: true } });
  if (!workflow) throw notFound("Workflow", name);
  const versions = await db.workflowVersion.findMany({ where: { workflowId: workflow.id }, orderBy: { version: "desc" }, select: { version: true, createdAt: true, _count: { select: { runs: true } } } });
  return { ...workflow, versions: versions.map((version) => ({ version: version.version, createdAt: version.createdAt, runs: version._count.runs })) };
}
