import { randomUUID } from "node:crypto";
import type { Actor } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { formatProblem } from "@/server/workflows/document";
import { recordAuditEvent } from "../audit/record-audit-event";
import { ServiceError } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { parseAgainstGroups } from "./routing-in-force";

/**
 * Saves `source` as the next routing version, which is in force for escalations routed from now on
 * (escalations already routed keep their policy). Refused, with every located problem, unless it
 * validates against the groups that exist. Two saves at once: the unique version number lets one
 * win and the other is told to reload.
 */
export async function saveRoutingVersion(db: Db, input: { source: string; comment?: string }, by: Actor): Promise<{ version: number }> {
  const parsed = await parseAgainstGroups(db, input.source);
  if (!parsed.ok) throw new ServiceError("INVALID_INPUT", `The routing document has ${parsed.problems.length} problem(s):\n${parsed.problems.map(formatProblem).join("\n")}`);
  try {
    return await db.$transaction(async (tx) => {
      const newest = await tx.routingVersion.findFirst({ orderBy: { version: "desc" }, select: { version: true } });
      const version = (newest?.version ?? 0) + 1;
      await tx.routingVersion.create({ data: { id: randomUUID(), version, source: input.source, createdBy: by.email, comment: input.comment?.trim() || null } });
      await recordAuditEvent(tx, { actor: by, action: "routing.saved", target: `routing:v${version}`, detail: { rules: parsed.document.rules.length, ...(input.comment?.trim() ? { comment: input.comment.trim() } : {}) } });
      return { version };
    });
  } catch (error) {
    if (isUniqueConstraintViolation(error)) throw new ServiceError("CONFLICT", "Someone saved a routing version at the same moment; reload to see it, then save again");
    throw error;
  }
}
