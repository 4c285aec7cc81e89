import type { Env } from "../../env";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { prewarmSandboxes } from "../../sandbox/run-tests";
import { startWorker } from "../../worker/worker-from-env";
import { EXIT, type CliIo } from "../io";
import { parseOptions } from "../parse-options";
import { UsageError } from "../usage-error";

export const WORKER_OPTIONS = { concurrency: { type: "string", short: "c" } } as const;

/** Resolves on the first SIGTERM or SIGINT (or when `signal` is already aborted, for tests). */
function untilStopped(signal?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const stop = (name: string) => () => resolve(name);
    process.once("SIGTERM", stop("SIGTERM"));
    process.once("SIGINT", stop("SIGINT"));
    signal?.addEventListener("abort", stop("abort"), { once: true });
  });
}

/**
 * `dualstate worker [--concurrency N]`: a standalone worker on DATABASE_URL. Any number may run
 * beside the web servers, on any machine that reaches the database. SIGTERM drains: running
 * turns finish, or after DUALSTATE_DRAIN_SECONDS are aborted and released to the inbox, and the process exits 0.
 */
export async function workerCommand(args: string[], env: Env, io: CliIo, signal?: AbortSignal): Promise<number> {
  const options = parseOptions(args, WORKER_OPTIONS, "worker");
  let concurrency = env.DUALSTATE_WORKER_CONCURRENCY;
  if (options.concurrency !== undefined) {
    concurrency = Number(options.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new UsageError(`dualstate worker: --concurrency must be a whole number from 1 to 64, got "${options.concurrency}"`);
  }
  await migrateDatabase(env.DATABASE_URL);
  const started = startWorker(env, { concurrency, log: (line) => io.err(line) });
  // The first verdicts need not pay a sandbox's start-up; an unavailable sandbox says why when used.
  void prewarmSandboxes().catch(() => {});
  io.out(`Worker ${started.worker.workerId} executing runs (concurrency ${concurrency}); SIGTERM drains and stops`);
  const reason = await untilStopped(signal);
  io.out(`Worker ${started.worker.workerId}: ${reason}, draining`);
  await started.stop(env.DUALSTATE_DRAIN_SECONDS * 1000);
  io.out(`Worker ${started.worker.workerId} stopped`);
  return EXIT.ok;
}
