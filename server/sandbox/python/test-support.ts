import { readdirSync, readFileSync } from "node:fs";
import type { SandboxLimits, TestRunOutcome } from "../types";
import { FIRST_SANDBOX_UID, SANDBOX_UIDS } from "../boundary/sandbox-identity";
import { runPythonTests } from "./run-python-tests";

/** Runs Python code and tests in the sandbox (test helper). */
export function runPython(artifact: string, tests: string, limits?: Partial<SandboxLimits>): Promise<TestRunOutcome> {
  return runPythonTests({ language: "python", artifact, tests, limits });
}

/** The outcome's output, or "" for outcomes without one. */
export function outputOf(outcome: TestRunOutcome): string {
  return "output" in outcome ? outcome.output : "";
}

/** Everything an outcome says, for asserting that a secret appears nowhere in it. */
export function everything(outcome: TestRunOutcome): string {
  return JSON.stringify(outcome);
}

/**
 * Live host processes of sandboxes whose CPU limit is `cpuSeconds` (read from /proc/<pid>/limits):
 * a test gives its run an unusual CPU limit to find that run's processes among everyone else's.
 * Only meaningful when the tests run as root (each sandbox then has a uid of its own).
 */
export function sandboxProcessesWithCpuLimit(cpuSeconds: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      if (/^State:\s+Z/m.test(status)) continue; // a zombie runs nothing; the host's init reaps it
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      if (uid < FIRST_SANDBOX_UID || uid >= FIRST_SANDBOX_UID + SANDBOX_UIDS) continue;
      const cpu = /^Max cpu time\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/limits`, "utf8"))?.[1];
      if (Number(cpu) === cpuSeconds) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}
