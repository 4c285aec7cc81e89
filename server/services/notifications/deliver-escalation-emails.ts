import { decisionLinkKey, newDecisionLinkId, signDecisionLink } from "@/server/notifications/decision-link-token";
import { escalationEmail, linesAround } from "@/server/notifications/escalation-email";
import { handoffGroupOf, reminderHoursOf } from "@/server/notifications/reminder-event";
import type { Db } from "@/server/persistence/db";
import { offendingLine } from "../escalations/offending-line";
import { failureOf, recordDeliveryOutcome } from "../outbox/record-delivery-outcome";
import { outboxBackoffMs } from "../outbox/retry-backoff";
import type { MailTransport } from "./smtp-transport";

export interface EmailDeliveryConfig {
  readonly transport: MailTransport;
  /** Where the dashboard is reached (DUALSTATE_BASE_URL): the links are absolute. */
  readonly baseUrl: string;
  /** The deployment's auth secret; decision links are signed with a key derived from it. */
  readonly authSecret: string;
  /** Attempts before a delivery is given up (its row keeps the last error). */
  readonly maxAttempts?: number;
  /** First retry delay; doubles per attempt up to an hour. */
  readonly baseDelayMs?: number;
  /** Hours before an escalation's deadline at which reviewers are reminded (DUALSTATE_REMINDER_HOURS). */
  readonly reminderHours?: readonly number[];
  /** The longest a decision link stays valid; never past the escalation's own deadline. */
  readonly linkLifetimeMs?: number;
}

const DEFAULT_LINK_LIFETIME_MS = 72 * 3_600_000;
/** An email that has not gone out in this long is claimed again by the next pass. */
const SEND_TIMEOUT_MS = 60_000;

/**
 * Sends every due escalation email once. A row is claimed by compare-and-swap on its attempt
 * count, so two dispatchers never send it at once. Each send mints the recipient's two decision
 * links (approve, reject), bound to the escalation and its artifact's hash. An escalation decided
 * before its email went out is not sent at all.
 */
export async function deliverDueEscalationEmails(db: Db, config: EmailDeliveryConfig, now = new Date()): Promise<{ delivered: number; retried: number; failed: number; skipped: number }> {
  const maxAttempts = config.maxAttempts ?? 6;
  const key = decisionLinkKey(config.authSecret);
  const due = await db.notificationDelivery.findMany({ where: { channel: "email", deliveredAt: null, failedAt: null, nextAttemptAt: { lte: now } }, orderBy: { nextAttemptAt: "asc" }, take: 50 });
  const tally = { delivered: 0, retried: 0, failed: 0, skipped: 0 };
  for (const delivery of due) {
    const attempts = delivery.attempts + 1;
    const claimed = await db.notificationDelivery.updateMany({
      where: { id: delivery.id, attempts: delivery.attempts, deliveredAt: null, failedAt: null },
      data: { attempts, nextAttemptAt: new Date(now.getTime() + SEND_TIMEOUT_MS + outboxBackoffMs(attempts, config.baseDelayMs)) },
    });
    if (claimed.count !== 1) continue;

    const escalation = await db.escalation.findUnique({
      where: { id: delivery.escalationId },
      select: {
        id: true, runId: true, status: true, stepName: true, guardId: true, feedback: true, expiresAt: true,
        artifact: { select: { content: true, contentHash: true, fatal: true } },
        run: { select: { workflowVersion: { select: { workflow: { select: { name: true } } } } } },
      },
    });
    if (!escalation || escalation.status !== "pending" || !escalation.artifact) {
      const why = !escalation ? "gone" : escalation.artifact ? escalation.status : "about no artifact";
      await db.notificationDelivery.update({ where: { id: delivery.id }, data: { failedAt: now, lastError: `not sent: the escalation is ${why}` } });
      tally.skipped++;
      continue;
    }
    const artifact = escalation.artifact;

    const lifetime = now.getTime() + (config.linkLifetimeMs ?? DEFAULT_LINK_LIFETIME_MS);
    const expiresAt = new Date(Math.min(lifetime, escalation.expiresAt?.getTime() ?? lifetime));
    const link = async (decision: "approve" | "reject") => {
      const claims = { linkId: newDecisionLinkId(), escalationId: escalation.id, recipient: delivery.recipient, decision, contentHash: artifact.contentHash, expiresAt };
      await db.decisionLink.create({ data: { id: claims.linkId, escalationId: claims.escalationId, recipient: claims.recipient, decision, contentHash: claims.contentHash, expiresAt, createdAt: now }, select: { id: true } });
      return `${config.baseUrl.replace(/\/+$/, "")}/decide/${signDecisionLink(key, claims)}`;
    };
    const message = escalationEmail({
      workflow: escalation.run.workflowVersion?.workflow.name ?? "(deleted workflow)",
      runId: escalation.runId,
      stepName: escalation.stepName,
      guardId: escalation.guardId,
      fatal: artifact.fatal,
      feedback: escalation.feedback,
      offendingLines: linesAround(artifact.content, offendingLine(escalation.feedback, artifact.content)),
      expiresAt: escalation.expiresAt,
      reminderHours: reminderHoursOf(delivery.event) ?? undefined,
      handedOffTo: handoffGroupOf(delivery.event) ?? undefined,
      reviewUrl: `${config.baseUrl.replace(/\/+$/, "")}/escalations/${escalation.id}`,
      approveUrl: await link("approve"),
      rejectUrl: await link("reject"),
    });
    const failure = await failureOf(() => config.transport.send(delivery.recipient, message));
    tally[await recordDeliveryOutcome(db.notificationDelivery, { id: delivery.id, attempts, maxAttempts, baseDelayMs: config.baseDelayMs, now }, failure)]++;
  }
  return tally;
}
