import { fileURLToPath } from "node:url";
import { runPythonScript } from "../python/run-python";
import type { AllowOptions } from "./allow-policy";
import { UNPARSEABLE, type Finding } from "./finding";

const SCRIPT = fileURLToPath(new URL("./python_analyzer.py", import.meta.url));
const DEFAULT_TIMEOUT_MS = 10_000;

export interface PythonAnalysisOptions extends AllowOptions {
  /** The interpreter to parse with; "python3" on PATH by default. */
  pythonExecutable?: string;
  timeoutMs?: number;
}

interface AnalyzerAnswer {
  findings?: Finding[];
  error?: { line: number | null; column: number | null; message: string };
}

/**
 * Static security analysis of Python source with python3's own `ast` module, in one python3
 * process (`-I -S`, empty environment, source on stdin). The code is parsed, never run.
 * A parse failure is a single UNPARSEABLE finding; `unavailable` means no analysis happened
 * (python3 missing, timed out or crashed).
 */
export async function analyzePython(source: string, options: PythonAnalysisOptions = {}): Promise<Finding[] | { unavailable: string; interpreterMissing?: true }> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const input = JSON.stringify({ source, allowModules: options.allowModules ?? [], allowCalls: options.allowCalls ?? [] });
  const run = await runPythonScript({ scriptPath: SCRIPT, input, timeoutMs, pythonExecutable: options.pythonExecutable });
  if (run.kind === "unavailable") return { unavailable: run.message, interpreterMissing: true };
  if (run.kind === "timeout") return { unavailable: `the Python analysis did not finish within ${timeoutMs} ms` };
  const answer = parseAnswer(run.stdout);
  if (answer?.error) {
    const { line, column, message } = answer.error;
    return [{ rule: UNPARSEABLE, construct: "syntax error", line: line ?? 0, ...(column ? { column } : {}), message }];
  }
  if (answer?.findings) return answer.findings;
  const reason = run.stderr.trim().split("\n").at(-1) || `exit code ${run.exitCode}`;
  return { unavailable: `the Python analyzer failed: ${reason}` };
}

function parseAnswer(stdout: string): AnalyzerAnswer | undefined {
  try {
    const answer = JSON.parse(stdout.trim()) as unknown;
    if (typeof answer !== "object" || answer === null) return undefined;
    const { findings, error } = answer as AnalyzerAnswer;
    if (Array.isArray(findings) && findings.every(isFinding)) return { findings };
    if (error && typeof error.message === "string") return { error };
    return undefined;
  } catch {
    return undefined;
  }
}

function isFinding(value: unknown): value is Finding {
  const finding = value as Partial<Finding> | null;
  return typeof finding === "object" && finding !== null && typeof finding.rule === "string" && typeof finding.construct === "string" && typeof finding.line === "number" && typeof finding.message === "string";
}
