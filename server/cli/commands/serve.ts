import type { Env } from "../../env";
import { parseDatabaseUrl } from "../../persistence/database-url";
import { projectRoot } from "../../persistence/project-root";
import { computeBuildFingerprint, isBuildStale, recordBuildFingerprint } from "../build-fingerprint";
import type { CliIo } from "../io";
import { runNext, runWebServer } from "../next-process";
import { parseOptions, parsePortOption } from "../parse-options";
import { dbMigrate } from "./db-migrate";
import { loadExamplesOnFirstStart } from "../../services/examples/load-examples";
import { createFirstAdminOnStart } from "../../services/users/first-admin-on-start";
import { IPC_RING } from "../../durable/doorbell";
import { prewarmSandboxes } from "../../sandbox/run-tests";
import { startWorker } from "../../worker/worker-from-env";
import { redactedSmtpUrl, startNotificationsFromEnv } from "../../services/notifications/notifications-from-env";
import { describeSlackSetup, startSlackFromEnv } from "../../services/slack/slack-from-env";
import { startWebhooksFromEnv } from "../../services/webhooks/webhooks-from-env";
import { startRoutingLoop } from "../../services/routing/routing-loop";

export const SERVE_OPTIONS = { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } } as const;

/**
 * `dualstate start` and `dualstate dev`: migrate, then hand over to Next.js. `start` first
 * builds when there is no build or the sources changed since the last one.
 */
export async function serve(mode: "start" | "dev", args: string[], env: Env, io: CliIo): Promise<number> {
  const options = parseOptions(args, SERVE_OPTIONS, mode);
  const port = parsePortOption(options.port, env.PORT, mode);
  const root = projectRoot();
  await dbMigrate(env, io);
  await loadExamplesOnFirstStart(env.DATABASE_URL, (text) => io.out(text));
  await createFirstAdminOnStart(env.DATABASE_URL, { email: env.DUALSTATE_ADMIN_EMAIL, password: env.DUALSTATE_ADMIN_PASSWORD }, (text) => io.out(text));

  // The server's working directory is the project folder; an absolute SQLite path keeps the
  // database where the CLI just migrated it, whatever directory the user started from.
  const target = parseDatabaseUrl(env.DATABASE_URL);
  const childEnv = { ...process.env, PORT: String(port), DATABASE_URL: target.provider === "sqlite" ? `file:${target.location}` : env.DATABASE_URL };

  if (mode === "start") {
    const fingerprint = computeBuildFingerprint(root);
    if (isBuildStale(root, fingerprint)) {
      io.out("Building the dashboard (first start, or the sources changed)...");
      const code = await runNext(root, ["build"], { ...childEnv, NODE_ENV: "production" });
      if (code !== 0) {
        io.err(`The build failed (exit code ${code}); see the output above.`);
        return code;
      }
      recordBuildFingerprint(root, fingerprint);
    }
  }
  // The embedded worker executes runs in this process; `dualstate worker` adds more elsewhere.
  const embedded = env.DUALSTATE_EMBEDDED_WORKER === "true" ? startWorker(env, { log: (line) => io.err(line) }) : undefined;
  if (embedded) void prewarmSandboxes().catch(() => {}); // the first verdicts need not pay a sandbox's start-up
  if (embedded) io.out(`Worker ${embedded.worker.workerId} executing runs (concurrency ${env.DUALSTATE_WORKER_CONCURRENCY})`);
  const routing = startRoutingLoop(env.DATABASE_URL, (line) => io.err(line));
  const webhooks = startWebhooksFromEnv(env, (line) => io.err(line));
  if (webhooks) io.out(`Escalation webhooks to ${env.DUALSTATE_WEBHOOK_URL}`);
  const notifications = startNotificationsFromEnv(env, (line) => io.err(line));
  if (notifications) io.out(`Escalation emails from ${env.DUALSTATE_SMTP_FROM} through ${redactedSmtpUrl(env.DUALSTATE_SMTP_URL!)}`);
  const slack = startSlackFromEnv(env, (line) => io.err(line));
  if (slack) io.out(describeSlackSetup(env));
  io.out(`Dualstate on http://${options.hostname ?? "localhost"}:${port}`);
  try {
    return await runWebServer(root, mode, { port, hostname: options.hostname }, childEnv, (message) => {
      if (message === IPC_RING) embedded?.worker.ring();
    });
  } finally {
    await routing.stop();
    await webhooks?.stop();
    await notifications?.stop();
    await slack?.stop();
    await embedded?.stop(env.DUALSTATE_DRAIN_SECONDS * 1000);
  }
}
