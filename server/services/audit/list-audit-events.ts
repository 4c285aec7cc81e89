import type { Db } from "@/server/persistence/db";

export interface ListAuditEventsInput {
  readonly action?: string;
  readonly actorEmail?: string;
  readonly limit: number;
  /** Events before this one (by time), for the next page. */
  readonly before?: Date;
}

export async function listAuditEvents(db: Db, input: ListAuditEventsInput) {
  const events = await db.auditEvent.findMany({
    where: {
      ...(input.action ? { action: { startsWith: input.action } } : {}),
      ...(input.actorEmail ? { actorEmail: { contains: input.actorEmail } } : {}),
      ...(input.before ? { at: { lt: input.before } } : {}),
    },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: input.limit,
  });
  return events.map((event) => ({ ...event, detail: event.detail as Record<string, unknown> }));
}
