import { Worker } from "node:worker_threads";
import { abortable } from "../../engine";

const WORKER_URL = new URL("./json-schema-worker.mjs", import.meta.url);
/** A check that needs more heap than this is a verdict (out of memory), not a crashed process. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };
/**
 * Worker threads at most, kept started between checks (a start costs ~50 ms of CPU: Node's
 * bootstrap and ajv); further checks wait for one. A reused worker answers a small check in
 * well under a millisecond.
 */
const MAX_WORKERS = 4;
/** A worker that has not loaded by then is given up (a broken install, an overloaded machine). */
const STARTUP_TIMEOUT_MS = 30_000;

export interface SchemaViolation {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export type SchemaCheckOutcome =
  | { readonly kind: "passed" }
  | { readonly kind: "invalid-json" }
  | { readonly kind: "failed"; readonly count: number; readonly errors: readonly SchemaViolation[] }
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "timeout" };

const idle: Worker[] = [];
const waiting: ((worker: Worker) => void)[] = [];
let started = 0;
let nextId = 0;

/**
 * An idle worker that fails or exits leaves the pool (listened to while idle: an unhandled
 * 'error' event would crash the host process).
 */
function onIdleGone(this: Worker) {
  const index = idle.indexOf(this);
  if (index < 0) return;
  idle.splice(index, 1);
  started--;
  void this.terminate();
}

/** Resolves once each worker has loaded (its { ready: true } message). */
const loaded = new WeakMap<Worker, Promise<void>>();

function spawn(): Worker {
  started++;
  const worker = new Worker(WORKER_URL, { resourceLimits: RESOURCE_LIMITS });
  loaded.set(
    worker,
    new Promise<void>((resolve) => {
      const onReady = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        worker.off("message", onReady);
        resolve();
      };
      worker.on("message", onReady);
    }),
  );
  return worker;
}

/** Waits until the worker has loaded; false if it did not within STARTUP_TIMEOUT_MS, or failed first. */
function whenLoaded(worker: Worker): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), STARTUP_TIMEOUT_MS);
    const failed = () => done(false);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      worker.off("error", failed);
      worker.off("exit", failed);
      resolve(ok);
    };
    worker.once("error", failed);
    worker.once("exit", failed);
    void loaded.get(worker)?.then(() => done(true));
  });
}

/** A worker for one check: an idle one, a new one below MAX_WORKERS, or the next one released. */
function acquire(signal: AbortSignal | undefined): Promise<Worker> {
  const worker = idle.pop();
  if (worker) {
    worker.off("error", onIdleGone);
    worker.off("exit", onIdleGone);
    return Promise.resolve(worker);
  }
  if (started < MAX_WORKERS) return Promise.resolve(spawn());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      waiting.splice(waiting.indexOf(handOver), 1);
      reject(signal?.reason as Error);
    };
    const handOver = (next: Worker) => {
      signal?.removeEventListener("abort", onAbort);
      resolve(next);
    };
    waiting.push(handOver);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** After a check: a healthy worker goes to the next waiting check or rests; a killed one is replaced for a waiting check. */
function release(worker: Worker, healthy: boolean): void {
  if (!healthy) {
    started--;
    void worker.terminate();
    const next = waiting.shift();
    if (next) next(spawn());
    return;
  }
  const next = waiting.shift();
  if (next) return next(worker);
  worker.on("error", onIdleGone);
  worker.on("exit", onIdleGone);
  worker.unref();
  idle.push(worker);
}

/**
 * Starts the first worker ahead of the first check (a guard being built means checks will come),
 * so a run's first check does not wait for Node and ajv to load.
 */
export function prewarmSchemaWorker(): void {
  if (started > 0) return;
  const worker = spawn();
  void whenLoaded(worker).then((ok) => release(worker, ok));
}

/** whenLoaded, or the signal's reason (the worker is released, not reused) when the run is stopped meanwhile. */
async function abortableLoad(worker: Worker, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    return await abortable(whenLoaded(worker), signal);
  } catch (error) {
    release(worker, false);
    throw error;
  }
}

/**
 * Checks `content` against `schemaText` in a worker thread. The event loop only waits: when
 * `timeoutMs` passes (or `signal` aborts) the thread is terminated, which stops even a check
 * stuck in one synchronous call, and the answer is "timeout" (or the signal's reason is thrown).
 */
export async function checkInWorker(schemaText: string, content: string, timeoutMs: number, signal?: AbortSignal): Promise<SchemaCheckOutcome> {
  signal?.throwIfAborted();
  const worker = await acquire(signal);
  worker.ref();
  if (!(await abortableLoad(worker, signal))) {
    release(worker, false);
    return { kind: "error", message: "the check's worker could not start" };
  }
  const id = ++nextId;
  return new Promise<SchemaCheckOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: SchemaCheckOutcome | { readonly abort: unknown }, healthy: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      // Only this check's own listeners are removed: Node's worker wiring has listeners of its own.
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      if (!healthy) worker.on("error", () => {});
      release(worker, healthy);
      if ("abort" in outcome) reject(outcome.abort as Error);
      else resolve(outcome);
    };
    const onAbort = () => finish({ abort: signal?.reason }, false);
    const timer = setTimeout(() => finish({ kind: "timeout" }, false), timeoutMs);
    const onMessage = (reply: { id: number; outcome: SchemaCheckOutcome }) => {
      if (reply.id === id) finish(reply.outcome, true);
    };
    const onError = (error: Error & { code?: string }) => {
      const message = error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "the check ran out of memory" : `the check's worker failed: ${error.message}`;
      finish({ kind: "error", message }, false);
    };
    const onExit = (code: number) => finish({ kind: "error", message: `the check's worker exited (code ${code})` }, false);
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage({ id, schema: schemaText, content });
  });
}
