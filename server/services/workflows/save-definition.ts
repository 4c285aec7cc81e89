import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { Db, Prisma } from "@/server/persistence/db";
import type { WorkflowDefinition } from "@/server/workflows/definition";

export interface SavedWorkflowVersion {
  workflowId: string;
  versionId: string;
  version: number;
  /** False when the latest stored version already holds this definition. */
  created: boolean;
}

/** The definition as stored: plain JSON (no undefined fields), so it compares equal to what is read back. */
export function normalisedDefinitionJson(definition: WorkflowDefinition): Prisma.InputJsonObject {
  return JSON.parse(JSON.stringify(definition)) as Prisma.InputJsonObject;
}

/**
 * Saves a validated definition under its name (issue 5, Versions): a new workflow with version 1,
 * or a new immutable version (latest + 1) when the latest stored definition differs. Saving an
 * unchanged definition returns the latest version with `created: false`. One transaction.
 */
export async function saveWorkflowDefinition(db: Db, definition: WorkflowDefinition): Promise<SavedWorkflowVersion> {
  const json = normalisedDefinitionJson(definition);
  return db.$transaction(async (tx) => {
    const workflow = await tx.workflow.findUnique({ where: { name: definition.name }, select: { id: true } });
    if (!workflow) {
      const workflowId = randomUUID();
      const versionId = randomUUID();
      await tx.workflow.create({
        data: {
          id: workflowId,
          name: definition.name,
          description: definition.description ?? "",
          versions: { create: { id: versionId, version: 1, definition: json } },
        },
        select: { id: true },
      });
      return { workflowId, versionId, version: 1, created: true };
    }
    const latest = await tx.workflowVersion.findFirst({
      where: { workflowId: workflow.id },
      orderBy: { version: "desc" },
      select: { id: true, version: true, definition: true },
    });
    if (latest && isDeepStrictEqual(latest.definition, json)) {
      return { workflowId: workflow.id, versionId: latest.id, version: latest.version, created: false };
    }
    const version = (latest?.version ?? 0) + 1;
    const versionId = randomUUID();
    await tx.workflowVersion.create({ data: { id: versionId, workflowId: workflow.id, version, definition: json }, select: { id: true } });
    await tx.workflow.update({ where: { id: workflow.id }, data: { description: definition.description ?? "" }, select: { id: true } });
    return { workflowId: workflow.id, versionId, version, created: true };
  });
}
