import type { Db } from "@/server/persistence/db";
import { PrismaRunRepository } from "@/server/persistence/prisma-run-repository";
import { notFound } from "../errors";

export interface CreateRunInput {
  workflowId: string;
  specification: string;
}

/**
 * Queues a run of the workflow's latest version. It stays "queued" until an executor picks
 * it up; executing runs arrives in a later issue.
 */
export async function createRun(db: Db, input: CreateRunInput): Promise<{ id: string }> {
  const latestVersion = await db.workflowVersion.findFirst({
    where: { workflowId: input.workflowId },
    orderBy: { version: "desc" },
    select: { id: true },
  });
  // Every workflow is created with version 1, so no version means no such workflow.
  if (!latestVersion) throw notFound("Workflow", input.workflowId);

  const run = await new PrismaRunRepository(db).create({ specification: input.specification, workflowVersionId: latestVersion.id });
  return { id: run.id };
}
