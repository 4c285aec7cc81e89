import type { Db } from "@/server/persistence/db";
import { parseRoutingDocument, type RoutingDocument, type RoutingParseResult } from "@/server/review-policy/routing";

export interface RoutingInForce {
  /** The newest routing version; null when none was ever saved (every escalation gets the default policy). */
  readonly version: number | null;
  readonly document: RoutingDocument | null;
}

/** Parses `source` against the reviewer groups that exist now. */
export async function parseAgainstGroups(db: Pick<Db, "reviewerGroup">, source: string): Promise<RoutingParseResult> {
  const groups = await db.reviewerGroup.findMany({ select: { name: true } });
  return parseRoutingDocument(source, { groups: groups.map((group) => group.name) });
}

/** The newest routing version no longer validates: escalations cannot be routed until an admin saves one that does. */
export class RoutingBrokenError extends Error {}

/**
 * The routing document in force: the newest saved version, parsed. It was valid when saved, and
 * groups it names cannot be renamed or deleted; should it fail anyway (an edit to the database by
 * hand), this throws, the routing pass logs it and leaves escalations unrouted, and notifications
 * go out after a minute to every reviewer (escalationsReadyToNotify).
 */
export async function routingInForce(db: Db): Promise<RoutingInForce> {
  const newest = await db.routingVersion.findFirst({ orderBy: { version: "desc" }, select: { version: true, source: true } });
  if (!newest) return { version: null, document: null };
  const parsed = await parseAgainstGroups(db, newest.source);
  if (!parsed.ok) throw new RoutingBrokenError(`routing version ${newest.version} no longer validates: ${parsed.problems.slice(0, 3).map((problem) => `${problem.path}: ${problem.message}`).join("; ")}`);
  return { version: newest.version, document: parsed.document };
}
