import { Worker } from "node:worker_threads";

const WORKER_URL = new URL("./json-schema-worker.mjs", import.meta.url);
/** A check that needs more heap than this is a verdict (out of memory), not a crashed process. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };
/** Started workers kept for the next checks (a start costs ~50 ms: Node's bootstrap and ajv). */
const MAX_IDLE = 4;

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

/** Workers started and not in use; each keeps one 'error' listener while idle. */
const idle: Worker[] = [];
let nextId = 0;
// Always listened to: an unhandled 'error' event would crash the host process.
const onIdleError = function (this: Worker) {
  void this.terminate();
};

function take(): Worker {
  const worker = idle.pop() ?? new Worker(WORKER_URL, { resourceLimits: RESOURCE_LIMITS });
  worker.off("error", onIdleError);
  worker.ref();
  return worker;
}

function giveBack(worker: Worker): void {
  worker.on("error", onIdleError);
  worker.unref();
  if (idle.length < MAX_IDLE) idle.push(worker);
  else void worker.terminate();
}

/**
 * Checks `content` against `schemaText` in a worker thread. The event loop only waits: when
 * `timeoutMs` passes (or `signal` aborts) the thread is terminated, which stops even a check
 * stuck in one synchronous call, and the answer is "timeout" (or the signal's reason is thrown).
 */
export function checkInWorker(schemaText: string, content: string, timeoutMs: number, signal?: AbortSignal): Promise<SchemaCheckOutcome> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  const worker = take();
  const id = ++nextId;
  return new Promise<SchemaCheckOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: SchemaCheckOutcome | { readonly abort: unknown }, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      // Only this check's own listeners are removed: Node's worker wiring has listeners of its own.
      worker.off("message", onMessage);
      worker.off("exit", onExit);
      if (reusable) {
        worker.off("error", onError);
        giveBack(worker);
      } else void worker.terminate();
      if ("abort" in outcome) reject(outcome.abort as Error);
      else resolve(outcome);
    };
    const onAbort = () => finish({ abort: signal?.reason }, false);
    const timer = setTimeout(() => finish({ kind: "timeout" }, false), timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    const onMessage = (reply: { id: number; outcome: SchemaCheckOutcome }) => {
      if (reply.id === id) finish(reply.outcome, true);
    };
    const onError = (error: Error & { code?: string }) => {
      const message = error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "the check ran out of memory" : `the check's worker failed: ${error.message}`;
      finish({ kind: "error", message }, false);
    };
    const onExit = (code: number) => finish({ kind: "error", message: `the check's worker exited (code ${code})` }, false);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage({ id, schema: schemaText, content });
  });
}
