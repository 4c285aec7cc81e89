import type { Db } from "@/server/persistence/db";
import type { Actor } from "@/server/api/trpc";
import { notFound } from "../errors";
import { recordAuditEvent } from "../audit/record-audit-event";

/**
 * Archives a workflow (hidden from the default list, not runnable) or brings it back. Its versions
 * and runs are kept and stay viewable. Archiving an archived workflow keeps its first date.
 * @throws ServiceError NOT_FOUND naming the workflow.
 */
export async function setWorkflowArchived(db: Db, input: { name: string; archived: boolean }, by: Actor): Promise<{ name: string; archivedAt: Date | null }> {
  return db.$transaction(async (tx) => {
    const workflow = await tx.workflow.findUnique({ where: { name: input.name }, select: { id: true, archivedAt: true } });
    if (!workflow) throw notFound("Workflow", input.name);
    if ((workflow.archivedAt !== null) === input.archived) return { name: input.name, archivedAt: workflow.archivedAt };
    const archivedAt = input.archived ? new Date() : null;
    await tx.workflow.update({ where: { id: workflow.id }, data: { archivedAt }, select: { id: true } });
    await recordAuditEvent(tx, { actor: by, action: input.archived ? "workflow.archived" : "workflow.unarchived", target: `workflow:${input.name}` });
    return { name: input.name, archivedAt };
  });
}

/** The refusal for starting a run of an archived workflow, said the same way everywhere. */
export function archivedWorkflowMessage(name: string): string {
  return `workflow "${name}" is archived; unarchive it to run it`;
}
