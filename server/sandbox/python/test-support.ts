import { readdirSync, readlinkSync } from "node:fs";
import type { SandboxLimits, TestRunOutcome } from "../types";
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

/** Live processes whose working directory is inside `directory` (a sandbox's run directory). */
export function processesIn(directory: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(directory)) found.push(Number(entry));
    } catch {
      // gone, or not ours to look at
    }
  }
  return found;
}

/** The run directory an artifact printed first (`print(os.getcwd(), flush=True)`). */
export function printedRunDirectory(outcome: TestRunOutcome): string {
  const directory = outputOf(outcome).split("\n")[0] ?? "";
  if (!directory.includes("dualstate-py-")) throw new Error(`no run directory in the output: ${outputOf(outcome).slice(0, 200)}`);
  return directory;
}
