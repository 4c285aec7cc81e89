import { fileURLToPath } from "node:url";
import { failed, GuardUnavailableError, passed, type GuardResult } from "../../engine";
import { runPythonScript } from "../python/run-python";

const SCRIPT = fileURLToPath(new URL("./python_syntax.py", import.meta.url));

interface PythonSyntaxAnswer {
  ok: boolean;
  line: number | null;
  column: number | null;
  message: string;
  text: string;
}

/** Parses with python3's own ast module, so the verdict is exactly what the interpreter would say. */
export async function checkPythonSyntax(source: string, options: { timeoutMs: number; pythonExecutable?: string }): Promise<GuardResult> {
  const run = await runPythonScript({ scriptPath: SCRIPT, input: source, timeoutMs: options.timeoutMs, pythonExecutable: options.pythonExecutable });
  // No interpreter on this server: no retry or model can fix that, so it is not a verdict.
  if (run.kind === "unavailable") throw new GuardUnavailableError(`Cannot check Python syntax on this server: ${run.message}`);
  if (run.kind === "timeout") return failed(`Python syntax check did not finish within ${options.timeoutMs} ms`);
  const answer = parseAnswer(run.stdout);
  if (!answer) return failed(`Python syntax check failed to run: ${run.stderr.trim().split("\n").at(-1) ?? "no output"}`);
  if (answer.ok) return passed();
  const where = answer.line === null ? "" : ` at line ${answer.line}${answer.column ? `, column ${answer.column}` : ""}`;
  const excerpt = answer.text.trim() ? `\n  ${answer.text.trim()}` : "";
  return failed(`Syntax error${where}: ${answer.message}${excerpt}`);
}

function parseAnswer(stdout: string): PythonSyntaxAnswer | undefined {
  try {
    return JSON.parse(stdout.trim()) as PythonSyntaxAnswer;
  } catch {
    return undefined;
  }
}
