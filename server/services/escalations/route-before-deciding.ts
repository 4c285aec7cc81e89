import type { Db } from "@/server/persistence/db";
import { conflict } from "../errors";
import { routeNewEscalations } from "../routing/route-new-escalations";
import { RoutingBrokenError } from "../routing/routing-in-force";

/** Routings under way, by escalation: concurrent decisions on a new escalation wait for one routing write, not one each (SQLite has one writer). */
const routingUnderWay = new Map<string, Promise<number>>();

/** Routes the escalation (route-new-escalations.ts's work, for this one) and returns the group it is offered to now. */
export async function routeBeforeDeciding(db: Db, escalationId: string): Promise<string | null> {
  let routing = routingUnderWay.get(escalationId);
  if (!routing) {
    routing = routeNewEscalations(db, { escalationId }).finally(() => routingUnderWay.delete(escalationId));
    routingUnderWay.set(escalationId, routing);
  }
  try {
    await routing;
  } catch (error) {
    // The document in force no longer validates: refuse rather than decide what routing would restrict.
    if (error instanceof RoutingBrokenError) throw conflict(`Escalation ${escalationId} cannot be decided before it is routed, and ${error.message}; an admin saves a valid routing version`);
    throw error;
  }
  const routed = await db.escalation.findUniqueOrThrow({ where: { id: escalationId }, select: { reviewGroup: true } });
  return routed.reviewGroup;
}
