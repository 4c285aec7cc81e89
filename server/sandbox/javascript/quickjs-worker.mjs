/**
 * Worker thread that runs exactly one sandboxed test run, then is terminated by the host.
 *
 * Why a worker_thread and not a child process: QuickJS (WebAssembly) is the isolation boundary;
 * the thread only has to let the host kill a run hard (worker.terminate() stops even a tight
 * WebAssembly loop in milliseconds) and keep a crashed runtime away from the host's event loop.
 * A bare worker starts in ~30 ms against ~80 ms for a bare child process (measured here), can
 * share the host's compiled WebAssembly.Module (see wasm-module.ts), and exchanges one message
 * each way. Its JS heap is capped by
 * resourceLimits; the sandbox's own memory is the capped WebAssembly.Memory below.
 *
 * Plain .mjs on purpose: Node loads it directly from disk under Vitest, tsx and a built
 * server alike, with no TypeScript loader needed inside the worker.
 *
 * Protocol: workerData { memoryMb, wasmModule? } (to prepare QuickJS and the harness while idle,
 * from the host's compiled WebAssembly.Module if given); then one message,
 * the job (see server/sandbox/javascript/worker-protocol.ts); the reply is the outcome.
 */
import { parentPort, workerData } from "node:worker_threads";
import RELEASE_SYNC from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";
import { createOutputSink } from "./worker/output-sink.mjs";
import { prepareSession } from "./worker/session.mjs";

const PAGE_BYTES = 64 * 1024;
/** The QuickJS build needs 16 MB of WebAssembly memory to start (its data and C stack). */
const BASE_PAGES = 256;

/**
 * A fresh QuickJS instance whose WebAssembly memory cannot grow past the limit.
 * runtime.setMemoryLimit alone is leaky under emscripten (stack.md pitfall 16); this cap is what
 * really bounds the sandbox, and hitting it is a clean "out of memory" inside QuickJS.
 */
function loadQuickJS(memoryMb) {
  const maximum = BASE_PAGES + Math.ceil((memoryMb * 1024 * 1024) / PAGE_BYTES);
  const wasmMemory = new WebAssembly.Memory({ initial: BASE_PAGES, maximum });
  // The host's compiled module, when given, is shared machine code: no compiling here.
  const compiled = workerData.wasmModule ? { wasmModule: workerData.wasmModule } : {};
  return newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { ...compiled, wasmMemory }));
}

/** A runtime with the harness bootstrapped for `memoryMb`, made while the worker waits for its job. */
async function prepare(memoryMb) {
  return prepareSession(await loadQuickJS(memoryMb), memoryMb);
}

const prepared = prepare(workerData.memoryMb).then(
  (session) => ({ session }),
  (error) => ({ error }),
);

async function sessionFor(memoryMb) {
  const warm = await prepared;
  if (warm.error) throw warm.error;
  return memoryMb === workerData.memoryMb ? warm.session : prepare(memoryMb);
}

parentPort.once("message", async (job) => {
  let session;
  try {
    session = await sessionFor(job.limits.memoryMb);
  } catch (error) {
    parentPort.postMessage({ status: "unavailable", message: `QuickJS could not be started: ${error instanceof Error ? error.message : String(error)}` });
    return;
  }
  parentPort.postMessage(session.run(job, createOutputSink(job.output)));
});
