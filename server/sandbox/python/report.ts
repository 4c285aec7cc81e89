import type { SandboxLimit, TestCaseResult } from "../types";

/** What runner.py writes to fd 3 once the test code has run to its end. */
export interface RunnerReport {
  readonly status: "passed" | "failed" | "error" | "limit" | "incomplete" | "unavailable";
  readonly limit: SandboxLimit | null;
  readonly message: string | null;
  readonly tests: readonly TestCaseResult[];
}

const STATUSES: ReadonlySet<string> = new Set(["passed", "failed", "error", "limit", "incomplete", "unavailable"]);
const LIMITS: ReadonlySet<string> = new Set(["wall_clock", "cpu", "memory", "output", "stack", "processes", "timers", "file_system", "network"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseTest(value: unknown): TestCaseResult | null {
  if (!isRecord(value) || typeof value.name !== "string" || typeof value.passed !== "boolean") return null;
  return typeof value.message === "string" ? { name: value.name, passed: value.passed, message: value.message } : { name: value.name, passed: value.passed };
}

/**
 * The runner's report, or null unless one line carries exactly this run's nonce. The generated
 * code can write to the report pipe too, but without the nonce its lines count for nothing (and a
 * line it corrupts makes the run incomplete, never passed).
 */
export function parseReport(text: string, nonce: string): RunnerReport | null {
  for (const line of text.split("\n")) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(value) || value.nonce !== nonce || typeof value.status !== "string" || !STATUSES.has(value.status)) continue;
    const limit = typeof value.limit === "string" && LIMITS.has(value.limit) ? (value.limit as SandboxLimit) : null;
    if (value.status === "limit" && limit === null) return null;
    const tests = Array.isArray(value.tests) ? value.tests.map(parseTest) : [];
    if (tests.some((test) => test === null)) return null;
    return {
      status: value.status as RunnerReport["status"],
      limit,
      message: typeof value.message === "string" ? value.message : null,
      tests: tests as TestCaseResult[],
    };
  }
  return null;
}
