import { HANDOFF_EVENT_PREFIX } from "@/server/notifications/reminder-event";
import type { Db } from "@/server/persistence/db";
import type { NotificationChannel } from "@/server/review-policy/escalation-policy";

/**
 * Pending guard escalations handed to a group (a backup, or at the deadline) with no hand-off row
 * for that group on `channel` yet, longest handed off first. In SQL, so hand-offs already told
 * never fill the batch: the event names the row's own group, which a Prisma relation filter cannot
 * compare with. Each channel's queue looks only at its own rows.
 */
export async function untoldHandOffs(db: Db, channel: NotificationChannel, take: number): Promise<{ id: string; reviewGroup: string }[]> {
  // Literals from typed constants, not input: the same text for SQLite and PostgreSQL.
  return db.$queryRawUnsafe<{ id: string; reviewGroup: string }[]>(
    `SELECT e."id", e."reviewGroup" FROM "Escalation" e
     WHERE e."status" = 'pending' AND e."kind" = 'guard' AND e."handedOffAt" IS NOT NULL AND e."reviewGroup" IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM "NotificationDelivery" n WHERE n."escalationId" = e."id" AND n."channel" = '${channel}' AND n."event" = '${HANDOFF_EVENT_PREFIX}' || e."reviewGroup")
     ORDER BY e."handedOffAt" LIMIT ${Math.trunc(take)}`,
  );
}
