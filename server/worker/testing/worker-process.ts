/**
 * A worker process for the durability tests (spawned with tsx): executes runs on DATABASE_URL
 * and, when DUALSTATE_TEST_CRASH_AT=<point>:<n> is set, kills itself with SIGKILL the n-th time
 * the turn reaches that ledger boundary, exactly as `kill -9` at that instant would. It exits
 * on its own once DUALSTATE_TEST_EXIT_WHEN_IDLE_MS passes without a claimable message.
 */
import { parseEnv } from "../../env";
import type { CrashPoint } from "../../persistence/run-store/turn-journal";
import { startWorker } from "../worker-from-env";

const [point, nth] = (process.env.DUALSTATE_TEST_CRASH_AT ?? "").split(":");
let seen = 0;
const crashAt = point
  ? (reached: CrashPoint) => {
      if (reached === point && ++seen === Number(nth ?? 1)) process.kill(process.pid, "SIGKILL");
    }
  : undefined;

const idleExitMs = Number(process.env.DUALSTATE_TEST_EXIT_WHEN_IDLE_MS ?? 0);
let lastTurn = Date.now();
const env = parseEnv(process.env);
const started = startWorker(env, {
  crashAt,
  pollMs: 50,
  watchdogIntervalMs: 200,
  workerId: process.env.DUALSTATE_TEST_WORKER_ID,
  onTurn: () => {
    lastTurn = Date.now();
  },
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`ready ${started.worker.workerId}\n`);

const stop = async () => {
  await started.stop(env.DUALSTATE_DRAIN_SECONDS * 1000);
  process.exit(0);
};
process.once("SIGTERM", () => void stop());
if (idleExitMs > 0) {
  setInterval(() => {
    if (Date.now() - lastTurn > idleExitMs) void stop();
  }, 100);
}
