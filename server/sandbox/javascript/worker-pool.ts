import { Worker } from "node:worker_threads";
import { quickJSWasmModule } from "./wasm-module";
import type { SandboxJob, WorkerOutcome } from "./worker-protocol";

const WORKER_URL = new URL("./quickjs-worker.mjs", import.meta.url);
/** Caps the worker's own V8 heap; the sandbox's memory is the worker's capped WebAssembly.Memory. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };
/**
 * Idle workers kept started, each used for exactly one run (a fresh worker per run means a
 * fresh QuickJS instance and nothing left over from an earlier run). Starting and preparing
 * one takes ~70 ms (Node's worker bootstrap ~30, imports ~17, QuickJS instance ~7, harness
 * ~13); a prepared one starts a run at once.
 */
const WARM_WORKERS = 2;
/** Errors that mean the worker could not even start: the sandbox is unavailable, not crashed. */
const STARTUP_ERRORS = new Set(["ERR_MODULE_NOT_FOUND", "ERR_UNKNOWN_FILE_EXTENSION", "ERR_WORKER_PATH", "ERR_WORKER_INIT_FAILED", "ERR_WORKER_INVALID_EXEC_ARGV"]);

interface WarmWorker {
  readonly worker: Worker;
  /** An error the worker raised while idle (it could not load, usually). */
  failure?: Error;
  exited: boolean;
}

const idle: WarmWorker[] = [];
let warmMemoryMb: number | undefined;
let wasmModule: WebAssembly.Module | undefined;

function spawn(memoryMb: number): WarmWorker {
  const worker = new Worker(WORKER_URL, { workerData: { memoryMb, wasmModule }, resourceLimits: RESOURCE_LIMITS });
  const entry: WarmWorker = { worker, exited: false };
  // Always listened to: an unhandled 'error' event would crash the host process.
  worker.on("error", (error) => {
    entry.failure ??= error;
  });
  worker.on("exit", () => {
    entry.exited = true;
  });
  // Idle workers must not keep the host process alive.
  worker.unref();
  return entry;
}

function refill(): void {
  if (warmMemoryMb === undefined) return;
  while (idle.length < WARM_WORKERS) idle.push(spawn(warmMemoryMb));
}

function take(memoryMb: number): WarmWorker {
  if (warmMemoryMb !== memoryMb) {
    // Warm workers pre-instantiate QuickJS for one memory limit: follow the latest request.
    warmMemoryMb = memoryMb;
    for (const entry of idle.splice(0)) void entry.worker.terminate();
  }
  let entry = idle.shift();
  while (entry && (entry.exited || entry.failure)) entry = idle.shift();
  const taken = entry ?? spawn(memoryMb);
  refill();
  return taken;
}

/** Starts workers ahead of the first run (optional; the first run otherwise pays ~100 ms). */
export async function prewarmSandboxWorkers(memoryMb: number): Promise<void> {
  wasmModule ??= await quickJSWasmModule();
  warmMemoryMb ??= memoryMb;
  refill();
}

function errorOutcome(error: Error & { code?: string }): WorkerOutcome {
  if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
    return { status: "limit", limit: "memory", message: `the sandbox worker ran out of heap memory: ${error.message}` };
  }
  if (error.code !== undefined && STARTUP_ERRORS.has(error.code)) {
    return { status: "unavailable", message: `the JavaScript sandbox could not start: ${error.message}` };
  }
  return { status: "error", message: `the sandbox worker crashed: ${error.message}`, tests: [] };
}

/**
 * Runs a job in a fresh worker. If the worker has not answered `killAfterMs` after the start
 * (QuickJS's interrupt handler normally stops the code at the deadline, but it can overshoot
 * or a bug could hang it), the worker is terminated: the host never waits longer than that.
 */
export async function runInWorker(job: SandboxJob, killAfterMs: number, signal?: AbortSignal): Promise<WorkerOutcome> {
  wasmModule ??= await quickJSWasmModule();
  let entry: WarmWorker;
  try {
    entry = take(job.limits.memoryMb);
  } catch (error) {
    return errorOutcome(error as Error);
  }
  const { worker } = entry;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: WorkerOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(killer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    const killer = setTimeout(() => {
      settle({
        status: "limit",
        limit: "wall_clock",
        message: `the run exceeded the wall-clock limit of ${job.limits.wallClockMs} ms and its worker was killed (it did not stop when interrupted)`,
      });
    }, killAfterMs);
    // A cancelled run frees its worker at once instead of running on to its wall clock.
    const onAbort = () => settle({ status: "incomplete", message: "the run was cancelled and its sandbox stopped" });
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    if (entry.failure) return settle(errorOutcome(entry.failure));
    if (entry.exited) return settle({ status: "unavailable", message: "the JavaScript sandbox worker exited before it was used" });
    worker.once("message", (outcome: WorkerOutcome) => settle(outcome));
    worker.on("error", (error) => settle(errorOutcome(error)));
    worker.once("exit", (code) => settle({ status: "error", message: `the sandbox worker exited unexpectedly (exit code ${code})`, tests: [] }));
    worker.ref();
    worker.postMessage(job);
  });
}
