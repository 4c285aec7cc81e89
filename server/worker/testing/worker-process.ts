/**
 * A worker process for the durability tests (spawned with tsx): executes runs on DATABASE_URL
 * and, when DUALSTATE_TEST_CRASH_AT=<point>:<n> is set, kills itself with SIGKILL the n-th time
 * the turn reaches that ledger boundary, exactly as `kill -9` at that instant would. With
 * DUALSTATE_TEST_PAUSE_AT=<point>:<n> it stops itself with SIGSTOP there instead (after saying
 * "paused at <point> (pid <pid>)" on stderr), as a long GC or a closed laptop lid would; SIGCONT resumes it
 * at that very instruction. It exits on its own once DUALSTATE_TEST_EXIT_WHEN_IDLE_MS passes
 * without a claimable message.
 */
import { writeSync } from "node:fs";
import { parseEnv } from "../../env";
import type { CrashPoint } from "../../durable/turn-journal";
import { startWorker } from "../worker-from-env";

function faultAt(setting: string | undefined, fault: (point: string) => void): ((reached: CrashPoint) => void) | undefined {
  const [point, nth] = (setting ?? "").split(":");
  let seen = 0;
  return point ? (reached) => void (reached === point && ++seen === Number(nth ?? 1) && fault(point)) : undefined;
}
const kill = faultAt(process.env.DUALSTATE_TEST_CRASH_AT, () => process.kill(process.pid, "SIGKILL"));
const pause = faultAt(process.env.DUALSTATE_TEST_PAUSE_AT, (point) => {
  // Its pid: tsx runs this script in a child of the spawned process, and SIGCONT must reach it.
  writeSync(2, `paused at ${point} (pid ${process.pid})\n`);
  process.kill(process.pid, "SIGSTOP");
});
const crashAt = kill || pause ? (reached: CrashPoint) => (kill?.(reached), pause?.(reached)) : undefined;

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
