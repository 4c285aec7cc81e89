import { randomUUID } from "node:crypto";
import type { Db, Prisma } from "@/server/persistence/db";
import { conflict } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";

export interface CreateWorkflowInput {
  name: string;
  description?: string;
  /**
   * Any JSON object for now: the workflow definition format (steps, generators, guards) is
   * specified in a later issue, which will validate it here and on every read.
   */
  definition: Prisma.InputJsonObject;
}

export interface CreatedWorkflow {
  id: string;
  version: number;
}

/** Creates a workflow with its first version. Fails with CONFLICT when the name is taken. */
export async function createWorkflow(db: Db, input: CreateWorkflowInput): Promise<CreatedWorkflow> {
  try {
    // A nested create is one statement batch in one transaction: no workflow without version 1.
    const workflow = await db.workflow.create({
      data: {
        id: randomUUID(),
        name: input.name,
        description: input.description ?? "",
        versions: { create: { id: randomUUID(), version: 1, definition: input.definition } },
      },
      select: { id: true },
    });
    return { id: workflow.id, version: 1 };
  } catch (error) {
    // The unique index on name decides, so two concurrent creates cannot both succeed.
    if (isUniqueConstraintViolation(error)) throw conflict(`name: a workflow named "${input.name}" already exists`);
    throw error;
  }
}
