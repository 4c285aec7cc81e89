import { randomUUID } from "node:crypto";
import type { Db, Prisma } from "@/server/persistence/db";
import { conflict } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";

export interface CreateWorkflowInput {
  name: string;
  description?: string;
  /** Stored as given, not validated. */
  definition: Prisma.InputJsonObject;
}

export interface CreatedWorkflow {
  id: string;
  version: number;
}

/**
 * Creates a workflow row with its first version, storing the definition without validating it.
 * The API saves through saveWorkflowDocument (validated, versioned); this stays for tests that
 * need a workflow row whatever its definition. Fails with CONFLICT when the name is taken.
 */
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
