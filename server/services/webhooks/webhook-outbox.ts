import { randomUUID } from "node:crypto";
import type { Db } from "@/server/persistence/db";

export type WebhookEvent = "escalation.created" | "escalation.decided";

interface PendingEvent {
  id: string;
}

/**
 * Queues a delivery for every escalation event not queued yet. The escalation row, written in
 * the run's transaction (created) or the decision's (decided), is the event's durable record: a
 * crash between it and this step loses nothing, the next pass finds it. (escalationId, event) is
 * unique, so concurrent dispatchers queue each event once.
 */
export async function queueWebhookEvents(db: Db, now = new Date(), batch = 100): Promise<number> {
  let queued = 0;
  for (const event of ["escalation.created", "escalation.decided"] as const) {
    const statusFilter = event === "escalation.decided" ? `AND e."status" <> 'pending'` : "";
    const rows = await db.$queryRawUnsafe<PendingEvent[]>(
      `SELECT e."id" AS "id" FROM "Escalation" e WHERE NOT EXISTS (SELECT 1 FROM "WebhookDelivery" w WHERE w."escalationId" = e."id" AND w."event" = '${event}') ${statusFilter} ORDER BY e."createdAt" LIMIT ${batch}`,
    );
    for (const { id } of rows) {
      const payload = await eventPayload(db, id, event, now);
      if (!payload) continue;
      try {
        await db.webhookDelivery.create({ data: { id: randomUUID(), escalationId: id, event, payload, nextAttemptAt: now, createdAt: now }, select: { id: true } });
        queued++;
      } catch (error) {
        // Another dispatcher queued it first (unique escalationId + event).
        if ((error as { code?: string }).code !== "P2002") throw error;
      }
    }
  }
  return queued;
}

async function eventPayload(db: Db, escalationId: string, event: WebhookEvent, now: Date): Promise<string | null> {
  const escalation = await db.escalation.findUnique({
    where: { id: escalationId },
    select: {
      id: true, kind: true, runId: true, stepName: true, guardId: true, feedback: true, status: true, createdAt: true, expiresAt: true,
      decision: true, decidedBy: true, decidedAt: true, comment: true, decidedHash: true,
      artifact: { select: { id: true, contentHash: true } },
      run: { select: { workflowVersion: { select: { workflow: { select: { name: true } } } } } },
    },
  });
  if (!escalation) return null;
  const { artifact, run, ...fields } = escalation;
  return JSON.stringify({
    event,
    sentAt: now.toISOString(),
    escalation: { ...fields, workflow: run.workflowVersion?.workflow.name ?? null, artifactId: artifact?.id ?? null, contentHash: artifact?.contentHash ?? null },
  });
}
