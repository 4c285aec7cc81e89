import type { Db } from "../../persistence/db";

const HOUR_MS = 3_600_000;

/**
 * A simulated clock for escalations whose deadlines the database's clock decides: instead of
 * moving the database's clock forward, moves every time of the escalation (raised, claimed,
 * handed off, its deadline) and its run's resume deadline back by `hours`. Seen from the
 * database, `hours` have passed for that escalation.
 */
export async function advanceEscalationClock(db: Db, escalationId: string, hours: number): Promise<void> {
  const shift = (date: Date | null) => (date === null ? null : new Date(date.getTime() - hours * HOUR_MS));
  const escalation = await db.escalation.findUniqueOrThrow({ where: { id: escalationId }, select: { runId: true, createdAt: true, expiresAt: true, claimedAt: true, handedOffAt: true, routedAt: true } });
  const run = await db.run.findUniqueOrThrow({ where: { id: escalation.runId }, select: { resumeDeadline: true } });
  await db.$transaction([
    db.escalation.update({
      where: { id: escalationId },
      data: { createdAt: shift(escalation.createdAt)!, expiresAt: shift(escalation.expiresAt), claimedAt: shift(escalation.claimedAt), handedOffAt: shift(escalation.handedOffAt), routedAt: shift(escalation.routedAt) },
    }),
    db.run.update({ where: { id: escalation.runId }, data: { resumeDeadline: shift(run.resumeDeadline) } }),
  ]);
}
