import type { TestCaseResult, TestRunOutcome } from "../types";
import type { PositionMap } from "./position-map";
import type { WorkerOutcome } from "./worker-protocol";

export interface SourcePositions {
  readonly artifact: PositionMap;
  readonly tests: PositionMap;
}

const POSITION = /\b(artifact|tests)\.(js|ts):(\d+)(?::(\d+))?/g;

/** "tests.ts:7:12" in the transpiled code -> the same place in the code as written. */
function remapPositions(text: string, positions: SourcePositions): string {
  return text.replace(POSITION, (match, role: "artifact" | "tests", extension: string, line: string, column: string | undefined) => {
    const mapped = positions[role](Number(line), Number(column ?? 1));
    return mapped ? `${role}.${extension}:${mapped.line}${column === undefined ? "" : `:${mapped.column}`}` : match;
  });
}

const NODE_GLOBAL = /'(process|Buffer|global|__dirname|__filename)' is not defined/;
const NETWORK_GLOBAL = /'(fetch|XMLHttpRequest|WebSocket)' is not defined/;

/** A hint where the message alone would leave the reader guessing why a name is missing. */
function addHints(text: string): string {
  if (NODE_GLOBAL.test(text)) {
    return `${text} (the sandbox is plain JavaScript: Node.js globals are not available, and require()/import resolve only the code under test and the provided test modules)`;
  }
  if (NETWORK_GLOBAL.test(text)) return `${text} (the sandbox has no network access)`;
  return text;
}

/** Adds output and duration, and makes every message point into the code as written. */
export function finalizeOutcome(raw: WorkerOutcome, positions: SourcePositions, output: string, durationMs: number): TestRunOutcome {
  const fix = (text: string) => addHints(remapPositions(text, positions));
  const tests = (results: readonly TestCaseResult[]) => results.map((test) => (test.message === undefined ? test : { ...test, message: fix(test.message) }));
  switch (raw.status) {
    case "passed":
    case "failed":
      return { status: raw.status, tests: tests(raw.tests), output, durationMs };
    case "error":
      return { status: "error", message: fix(raw.message), tests: tests(raw.tests), output, durationMs };
    case "limit":
      return { status: "limit", limit: raw.limit, message: fix(raw.message), output, durationMs };
    case "incomplete":
      return { status: "incomplete", message: fix(raw.message), output, durationMs };
    case "unavailable":
      return { status: "unavailable", message: raw.message, durationMs };
  }
}
