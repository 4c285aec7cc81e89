import { randomUUID } from "node:crypto";
import type { Db, Prisma } from "@/server/persistence/db";
import type { Actor } from "@/server/api/trpc";
import { workflowNameProblem } from "@/server/workflows/definition/workflow-name";
import { conflict, invalidInput, notFound } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { recordAuditEvent } from "../audit/record-audit-event";

export interface RenamedWorkflow {
  readonly id: string;
  readonly name: string;
  /** The version that carries the new name (the document names the workflow); null when it has none. */
  readonly version: number | null;
}

/**
 * Renames a workflow. The document names its workflow, so the new name is also written into a
 * new version (the latest definition with only `name` changed); earlier versions and their runs
 * stay as they were. One transaction with its audit event.
 * @throws ServiceError INVALID_INPUT when the new name breaks the name rule, NOT_FOUND, or
 *   CONFLICT when another workflow has the name.
 */
export async function renameWorkflow(db: Db, input: { name: string; newName: string }, by: Actor): Promise<RenamedWorkflow> {
  const problem = workflowNameProblem(input.newName);
  if (problem !== null) throw invalidInput("newName", problem);
  const taken = () => conflict(`newName: a workflow named "${input.newName}" already exists`);
  try {
    return await db.$transaction(async (tx) => {
      const workflow = await tx.workflow.findUnique({ where: { name: input.name }, select: { id: true } });
      if (!workflow) throw notFound("Workflow", input.name);
      if (input.newName === input.name) throw invalidInput("newName", "is the workflow's name already");
      if (await tx.workflow.findUnique({ where: { name: input.newName }, select: { id: true } })) throw taken();
      await tx.workflow.update({ where: { id: workflow.id }, data: { name: input.newName }, select: { id: true } });
      const latest = await tx.workflowVersion.findFirst({ where: { workflowId: workflow.id }, orderBy: { version: "desc" }, select: { version: true, definition: true } });
      let version: number | null = null;
      if (latest) {
        version = latest.version + 1;
        const definition = { ...(latest.definition as Prisma.JsonObject), name: input.newName };
        await tx.workflowVersion.create({ data: { id: randomUUID(), workflowId: workflow.id, version, definition }, select: { id: true } });
      }
      await recordAuditEvent(tx, { actor: by, action: "workflow.renamed", target: `workflow:${input.newName}`, detail: { from: input.name, to: input.newName, version } });
      return { id: workflow.id, name: input.newName, version };
    });
  } catch (error) {
    // Two renames to one name at once: the unique index lets one in.
    if (isUniqueConstraintViolation(error)) throw taken();
    throw error;
  }
}
