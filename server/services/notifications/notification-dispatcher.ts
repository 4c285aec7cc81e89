import type { Db } from "@/server/persistence/db";
import { startPollLoop, type PollLoop } from "../outbox/poll-loop";
import { routeNewEscalations } from "../routing/route-new-escalations";
import { deliverDueEscalationEmails, type EmailDeliveryConfig } from "./deliver-escalation-emails";
import { queueEscalationEmails } from "./queue-escalation-emails";
import { queueHandoffNotifications } from "./queue-handoff-notifications";
import { queueReminders } from "./queue-reminders";

/** Polls for new escalations, hand-offs to other groups and deadlines drawing near, queues an email per reviewer, and sends what is due. */
export function startNotificationDispatcher(db: Db, config: EmailDeliveryConfig, options: { pollMs?: number; log?: (line: string) => void } = {}): PollLoop {
  return startPollLoop("notification dispatcher", async () => {
    // Routed first, so the emails go to the group routing chose; a failing routing pass must not stop the emails.
    await routeNewEscalations(db).catch((error: unknown) => options.log?.(`routing: ${error instanceof Error ? error.message : String(error)}`));
    await queueEscalationEmails(db);
    await queueHandoffNotifications(db);
    if (config.reminderHours && config.reminderHours.length > 0) await queueReminders(db, config.reminderHours);
    await deliverDueEscalationEmails(db, config);
  }, options);
}
