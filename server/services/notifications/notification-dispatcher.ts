import type { Db } from "@/server/persistence/db";
import { startPollLoop, type PollLoop } from "../outbox/poll-loop";
import { deliverDueEscalationEmails, type EmailDeliveryConfig } from "./deliver-escalation-emails";
import { queueEscalationEmails } from "./queue-escalation-emails";
import { queueHandoffNotifications } from "./queue-handoff-notifications";
import { queueReminders } from "./queue-reminders";

/** Polls for new escalations, hand-offs to other groups and deadlines drawing near, queues an email per reviewer, and sends what is due. */
export function startNotificationDispatcher(db: Db, config: EmailDeliveryConfig, options: { pollMs?: number; log?: (line: string) => void } = {}): PollLoop {
  return startPollLoop("notification dispatcher", async () => {
    await queueEscalationEmails(db);
    await queueHandoffNotifications(db);
    if (config.reminderHours && config.reminderHours.length > 0) await queueReminders(db, config.reminderHours);
    await deliverDueEscalationEmails(db, config);
  }, options);
}
