import type { Db, Prisma } from "@/server/persistence/db";
import { escalationPolicyOf, type EscalationPolicy, type NotificationChannel } from "@/server/review-policy/escalation-policy";

/**
 * How long an escalation the routing pass has not routed waits before it is announced anyway (with
 * the default policy: to every reviewer). Routing runs before notifying, so people are told where
 * an escalation was routed; this keeps notifications from stalling when routing is broken.
 */
export const UNROUTED_GRACE_MS = 60_000;

/** The rule every channel's queue shares: pending, and routed, or unrouted for longer than the grace. */
export function readyToNotifyWhere(now: Date): Prisma.EscalationWhereInput {
  return { status: "pending", OR: [{ routedAt: { not: null } }, { createdAt: { lte: new Date(now.getTime() - UNROUTED_GRACE_MS) } }] };
}

export interface EscalationToNotify {
  readonly id: string;
  /** The group it is offered to now (null: every reviewer). */
  readonly reviewGroup: string | null;
  readonly policy: EscalationPolicy;
}

/**
 * Guard escalations ready to announce on `channel` that have no `event` row queued on it yet,
 * oldest first. A queue that decides to send nothing for one must still write a row (sent to
 * nobody, marked not sent), or the escalation would come back on every pass.
 */
export async function escalationsReadyToNotify(db: Db, query: { channel: NotificationChannel; event: string; now: Date; take: number }): Promise<EscalationToNotify[]> {
  const rows = await db.escalation.findMany({
    // Guard escalations: a budget escalation has no code to approve by link (docs/notifications.md).
    where: { ...readyToNotifyWhere(query.now), kind: "guard", notifications: { none: { channel: query.channel, event: query.event } } },
    orderBy: { createdAt: "asc" },
    take: query.take,
    select: { id: true, reviewGroup: true, policy: true },
  });
  return rows.map((row) => ({ id: row.id, reviewGroup: row.reviewGroup, policy: escalationPolicyOf(row.policy) }));
}
