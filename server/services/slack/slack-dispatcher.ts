import type { Db } from "@/server/persistence/db";
import { startPollLoop, type PollLoop } from "../outbox/poll-loop";
import type { SlackDeliveryConfig } from "./slack-config";
import { deliverDueSlackNotifications } from "./deliver-slack-notifications";
import { queueSlackNotifications } from "./queue-slack-notifications";

/** Polls for new escalations, hand-offs and deadlines drawing near, queues the Slack messages due, and sends them. */
export function startSlackDispatcher(db: Db, config: SlackDeliveryConfig, options: { pollMs?: number; log?: (line: string) => void } = {}): PollLoop {
  return startPollLoop("slack dispatcher", async () => {
    await queueSlackNotifications(db, config);
    await deliverDueSlackNotifications(db, config);
  }, options);
}
