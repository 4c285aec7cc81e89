import type { Db } from "@/server/persistence/db";
import { escalationPolicyOf } from "@/server/review-policy/escalation-policy";
import { groupsNamedBy, parseRoutingDocument } from "@/server/review-policy/routing";

/**
 * Why group `name` cannot be renamed or deleted now, or null: the routing document in force sends
 * escalations to it, pending escalations are offered to it, or their policies (routed under an
 * older version) would hand them to it. Renaming it under them would leave the document naming a
 * group that no longer exists, and escalations nobody is offered.
 */
export async function groupInUse(db: Pick<Db, "routingVersion" | "reviewerGroup" | "escalation">, name: string, change: "renamed" | "deleted"): Promise<string | null> {
  const newest = await db.routingVersion.findFirst({ orderBy: { version: "desc" }, select: { version: true, source: true } });
  if (newest) {
    const groups = await db.reviewerGroup.findMany({ select: { name: true } });
    const parsed = parseRoutingDocument(newest.source, { groups: groups.map((group) => group.name) });
    if (parsed.ok && groupsNamedBy(parsed.document).has(name)) return `The routing document in force (version ${newest.version}) sends escalations to "${name}"; change it first, then the group can be ${change}`;
  }
  const handing = await pendingHandingTo(db, name);
  if (handing > 0) return `${handing} pending escalation(s) would be handed to "${name}" (their policy's backup or deadline hand-off); decide them first, then the group can be ${change}`;
  if (change === "deleted") {
    const pending = await db.escalation.count({ where: { status: "pending", reviewGroup: name } });
    if (pending > 0) return `${pending} pending escalation(s) are offered to "${name}"; decide them first, then the group can be deleted`;
  }
  return null;
}

/** Pending escalations whose stored policy names `name` as its backup or deadline hand-off group. */
async function pendingHandingTo(db: Pick<Db, "escalation">, name: string): Promise<number> {
  // Policies are JSON, read the same way on SQLite and PostgreSQL; only routed, pending escalations have one.
  const pending = await db.escalation.findMany({ where: { status: "pending", routedAt: { not: null } }, select: { policy: true } });
  return pending.filter(({ policy }) => {
    const { backup, deadline } = escalationPolicyOf(policy);
    return backup?.group === name || deadline.handoffGroup === name;
  }).length;
}
