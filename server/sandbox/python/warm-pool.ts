import type { Readable } from "node:stream";
import { launchSandbox, type Launched } from "../boundary/launch-sandbox";
import type { SandboxLimits } from "../types";
import { pythonProcessLimits, pythonSandboxProfile, RUNNER_DIRECTORY } from "./sandbox-profile";
import type { SandboxInterpreter } from "./sandbox-interpreter";
import { pythonRunnerFiles } from "./usable-interpreter";

export type StartedSandbox = Extract<Launched, { ok: true }>;
type Started = Launched;

interface WarmEntry {
  readonly started: Promise<Started>;
  exited: boolean;
}

/**
 * Sandboxes started ahead of need, one per interpreter and limit set (the limits are set by
 * prlimit before the interpreter starts, so a warm process fits one limit set only). A warm
 * process is bwrap plus python3 with the runner loaded, blocked reading its request: handing
 * it to a run costs nothing, and each is handed to exactly one run and then replaced; none is
 * ever reused. At most MAX_WARM_SETS limit sets are kept warm (the most recent ones).
 */
const MAX_WARM_SETS = 4;
const warm = new Map<string, WarmEntry>();

function keyOf(interpreter: SandboxInterpreter, limits: SandboxLimits): string {
  return `${interpreter.executable}|${limits.cpuMs}|${limits.memoryMb}`;
}

function start(interpreter: SandboxInterpreter, limits: SandboxLimits): WarmEntry {
  const entry: WarmEntry = {
    exited: false,
    started: launchSandbox({
      profile: pythonSandboxProfile(interpreter, pythonRunnerFiles(), [`${RUNNER_DIRECTORY}/runner.py`]),
      limits: pythonProcessLimits(limits),
      extraPipes: 1,
    }),
  };
  void entry.started.then((launched) => {
    if (!launched.ok) return;
    launched.child.once("exit", () => (entry.exited = true));
    // An idle sandbox must not keep the server (or a script) alive.
    setReferenced(launched, false);
  });
  return entry;
}

function setReferenced(launched: StartedSandbox, referenced: boolean): void {
  const { child } = launched;
  if (referenced) child.ref();
  else child.unref();
  for (const stream of child.stdio) {
    const socket = stream as (Readable & { ref?: () => void; unref?: () => void }) | null;
    if (referenced) socket?.ref?.();
    else socket?.unref?.();
  }
}

function refill(key: string, interpreter: SandboxInterpreter, limits: SandboxLimits): void {
  warm.delete(key);
  warm.set(key, start(interpreter, limits));
  while (warm.size > MAX_WARM_SETS) {
    const [oldest, entry] = warm.entries().next().value as [string, WarmEntry];
    warm.delete(oldest);
    void entry.started.then((launched) => launched.ok && launched.kill());
  }
}

/** A sandbox for one run: the warm one for these limits if it is still alive, else a fresh one. A replacement starts at once. */
export async function takeSandbox(interpreter: SandboxInterpreter, limits: SandboxLimits): Promise<Started> {
  const key = keyOf(interpreter, limits);
  const entry = warm.get(key);
  warm.delete(key);
  // The replacement is spawned once this run has its code (spawning blocks the event loop for a
  // few ms, which the run being handed over should not wait for).
  setImmediate(() => {
    if (!warm.has(key)) refill(key, interpreter, limits);
  });
  const launched = entry && !entry.exited ? await entry.started : undefined;
  if (launched?.ok && !entry?.exited) {
    setReferenced(launched, true);
    return launched;
  }
  const fresh = await start(interpreter, limits).started;
  if (fresh.ok) setReferenced(fresh, true);
  return fresh;
}

/** Starts a warm sandbox for these limits ahead of the first run (optional). */
export function prewarm(interpreter: SandboxInterpreter, limits: SandboxLimits): void {
  const key = keyOf(interpreter, limits);
  if (!warm.has(key)) refill(key, interpreter, limits);
}

/** Kills every idle sandbox (tests and benchmarks: a fresh pool). */
export function discardWarmSandboxes(): void {
  for (const entry of warm.values()) void entry.started.then((launched) => launched.ok && launched.kill());
  warm.clear();
}
