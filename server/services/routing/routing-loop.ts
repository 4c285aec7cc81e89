import { createDb } from "@/server/persistence/db";
import { startPollLoop, type PollLoop } from "../outbox/poll-loop";
import { routeNewEscalations } from "./route-new-escalations";

/** How often the routing pass looks for new escalations; when there are none it costs one indexed query. */
const ROUTING_POLL_MS = 2_000;

/**
 * The routing pass as a poll loop of `dualstate start` / `dev`, whatever else is configured: the
 * group an escalation is offered to and its deadline come from routing even with no email set up.
 * The notification dispatcher also routes before it queues, so neither waits for the other.
 */
export function startRoutingLoop(databaseUrl: string, log: (line: string) => void, options: { pollMs?: number } = {}): PollLoop {
  const db = createDb(databaseUrl);
  const loop = startPollLoop("routing", async () => {
    await routeNewEscalations(db);
  }, { pollMs: options.pollMs ?? ROUTING_POLL_MS, log });
  return {
    async stop() {
      await loop.stop();
      await db.$disconnect();
    },
  };
}
