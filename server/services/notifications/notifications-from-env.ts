import { authSecret } from "@/server/auth/auth-secret";
import type { Env } from "@/server/env";
import { createDb } from "@/server/persistence/db";
import type { PollLoop } from "../outbox/poll-loop";
import { startNotificationDispatcher } from "./notification-dispatcher";
import { createSmtpTransport } from "./smtp-transport";

/** The escalation email dispatcher for DUALSTATE_SMTP_URL, or undefined when none is configured. */
export function startNotificationsFromEnv(env: Env, log: (line: string) => void): PollLoop | undefined {
  if (!env.DUALSTATE_SMTP_URL || !env.DUALSTATE_SMTP_FROM || !env.DUALSTATE_BASE_URL) return undefined;
  const db = createDb(env.DATABASE_URL);
  const transport = createSmtpTransport(env.DUALSTATE_SMTP_URL, env.DUALSTATE_SMTP_FROM);
  const baseUrl = env.DUALSTATE_BASE_URL;
  // The secret is read (or created) once; the dispatcher starts when it is known.
  const started = authSecret(db, env.DUALSTATE_AUTH_SECRET).then((secret) => startNotificationDispatcher(db, { transport, baseUrl, authSecret: secret, reminderHours: env.DUALSTATE_REMINDER_HOURS }, { log }));
  started.catch((error: unknown) => log(`notification dispatcher: cannot start: ${error instanceof Error ? error.message : String(error)}`));
  return {
    async stop() {
      await (await started.catch(() => undefined))?.stop();
      transport.close();
      await db.$disconnect();
    },
  };
}

/** The SMTP URL with its password hidden, for the start-up line. */
export function redactedSmtpUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(the configured SMTP server)";
  }
}
