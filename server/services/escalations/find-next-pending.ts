import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";
import { nextPendingAfter } from "./next-pending";

/** How many pending escalations the search looks at: a queue longer than this is worked from its head. */
const PENDING_SCAN_LIMIT = 500;

/**
 * The id of the pending escalation `reviewer` should look at after `after` (or the queue's head),
 * in queue order (oldest deadline first), skipping the ones another reviewer has claimed; null
 * when nothing else is pending.
 */
export async function findNextPending(db: Db, reviewer: string, input: { after?: string | undefined }): Promise<{ id: string | null }> {
  const place = { id: true, expiresAt: true, createdAt: true } as const;
  const current = input.after ? await db.escalation.findUnique({ where: { id: input.after }, select: place }) : null;
  if (input.after && !current) throw notFound("Escalation", input.after);
  const pending = await db.escalation.findMany({
    where: { status: "pending", OR: [{ claimedBy: null }, { claimedBy: reviewer }] },
    orderBy: [{ expiresAt: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    take: PENDING_SCAN_LIMIT,
    select: place,
  });
  return { id: nextPendingAfter(pending, current) };
}
