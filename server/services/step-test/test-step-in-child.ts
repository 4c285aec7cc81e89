import { spawn } from "node:child_process";
import { fromProjectRoot, projectRoot } from "@/server/persistence/project-root";
import { conflict, ServiceError, SERVICE_ERROR_CODES, type ServiceErrorCode } from "../errors";
import type { ModelDirectory } from "@/server/models/model-directory";
import type { ChildReply, ChildRequest } from "./child/run-step-test-child";
import { withConcurrencySlot } from "./concurrency-gate";
import { prepareStepTest } from "./prepare-step-test";
import type { StepTestInput } from "./step-test-input";
import { STEP_TEST_LIMITS } from "./step-test-limits";
import type { StepTestResult } from "./step-test-result";

const CHILD_SCRIPT = "server/services/step-test/child/step-test-child.mjs";
/** Start-up (tsx, the guard modules) and reporting on top of the test's own time budget. */
const CHILD_MARGIN_MS = 30_000;
/** Bounded by the inputs' limits anyway; a reply past this is a bug, not a result to parse. */
const MAX_REPLY_BYTES = 64 * 1024 * 1024;
const STDERR_TAIL_BYTES = 4096;

/**
 * testStep for the web server: the same test, run in a process of its own. The Next.js bundle
 * cannot load the guards' sandboxes (their scripts and WebAssembly come from their source
 * folders), and a process of its own also puts a hard wall around the test: a cancelled request
 * ends it (SIGTERM, then SIGKILL), and so does the time budget with a margin. The per-person
 * limit is held here, in the web server, for as long as the process runs.
 */
export async function testStepInChildProcess(input: StepTestInput, actor: { readonly id: string }, options: { readonly signal?: AbortSignal; readonly models?: ModelDirectory } = {}): Promise<StepTestResult> {
  // Bad input is refused at once, without starting a process; the child checks it again.
  prepareStepTest(input);
  return withConcurrencySlot(actor.id, STEP_TEST_LIMITS.perPersonConcurrency, () => runChild({ input, models: options.models }, options.signal));
}

function runChild(request: ChildRequest, signal: AbortSignal | undefined): Promise<StepTestResult> {
  return new Promise<StepTestResult>((resolve, reject) => {
    if (signal?.aborted) return reject(conflict("The step test was cancelled"));
    const child = spawn(process.execPath, [fromProjectRoot(CHILD_SCRIPT)], { cwd: projectRoot(), stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    let size = 0;
    let stderrTail = "";
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(hardStop);
      signal?.removeEventListener("abort", cancel);
      outcome();
    };
    const kill = () => {
      child.kill("SIGTERM");
      setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"), 5_000).unref();
    };
    const cancel = () => {
      kill();
      finish(() => reject(conflict("The step test was cancelled")));
    };
    const hardStop = setTimeout(() => {
      child.kill("SIGKILL");
      finish(() => reject(new Error(`The step test process did not answer within ${STEP_TEST_LIMITS.totalMs + CHILD_MARGIN_MS} ms`)));
    }, STEP_TEST_LIMITS.totalMs + CHILD_MARGIN_MS);
    signal?.addEventListener("abort", cancel, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REPLY_BYTES) stdout.push(chunk);
      else {
        child.kill("SIGKILL");
        finish(() => reject(new Error(`The step test process replied with more than ${MAX_REPLY_BYTES} bytes`)));
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
    });
    child.on("error", (error) => finish(() => reject(error)));
    child.on("close", (code, exitSignal) => finish(() => settle(Buffer.concat(stdout).toString("utf8"), `exit ${code ?? exitSignal}; ${stderrTail}`, resolve, reject)));
    // The child may end before reading everything (a crash at start-up): its close says why.
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(request));
  });
}

function settle(text: string, diagnostics: string, resolve: (result: StepTestResult) => void, reject: (error: unknown) => void): void {
  let reply: ChildReply;
  try {
    reply = JSON.parse(text) as ChildReply;
  } catch {
    return reject(new Error(`The step test process gave no result (${diagnostics})`));
  }
  if (reply.ok) return resolve(reply.result as StepTestResult);
  if (SERVICE_ERROR_CODES.includes(reply.code as ServiceErrorCode)) return reject(new ServiceError(reply.code as ServiceErrorCode, reply.message));
  reject(new Error(`The step test process failed (${diagnostics})`));
}

