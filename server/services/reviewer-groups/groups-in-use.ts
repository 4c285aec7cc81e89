import type { Db } from "@/server/persistence/db";
import { groupsNamedBy, parseRoutingDocument } from "@/server/review-policy/routing";

/**
 * Why group `name` cannot be renamed or deleted now, or null: the routing document in force sends
 * escalations to it, or pending escalations are offered to it. Renaming it under them would leave
 * the document naming a group that no longer exists, and escalations nobody is offered.
 */
export async function groupInUse(db: Pick<Db, "routingVersion" | "reviewerGroup" | "escalation">, name: string, change: "renamed" | "deleted"): Promise<string | null> {
  const newest = await db.routingVersion.findFirst({ orderBy: { version: "desc" }, select: { version: true, source: true } });
  if (newest) {
    const groups = await db.reviewerGroup.findMany({ select: { name: true } });
    const parsed = parseRoutingDocument(newest.source, { groups: groups.map((group) => group.name) });
    if (parsed.ok && groupsNamedBy(parsed.document).has(name)) return `The routing document in force (version ${newest.version}) sends escalations to "${name}"; change it first, then the group can be ${change}`;
  }
  if (change === "deleted") {
    const pending = await db.escalation.count({ where: { status: "pending", reviewGroup: name } });
    if (pending > 0) return `${pending} pending escalation(s) are offered to "${name}"; decide them first, then the group can be deleted`;
  }
  return null;
}
