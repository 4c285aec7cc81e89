import { StepConfigurationError, type CodeStepOutcome, type ContextValue, type MachineContext } from "../../engine";
import { runTests } from "../../sandbox/run-tests";
import type { GuardLanguage } from "../../guards/language";

const MARKER = "__DUALSTATE_CONTEXT__";

/**
 * Runs a code step in the guard sandbox of its language (Python: inside the bubblewrap boundary,
 * server/sandbox/boundary; nothing of the server is reachable from the code). The code sees the run's context as
 * `context` and may change it; a harness test prints the context afterwards, and the interpreter
 * accepts only changes to declared variables.
 * @throws StepConfigurationError when the server has no sandbox for the language.
 */
export async function runCodeStep(code: string, language: GuardLanguage, context: MachineContext, pythonExecutable?: string, signal?: AbortSignal): Promise<CodeStepOutcome> {
  const json = JSON.stringify(context);
  const request =
    language === "python"
      ? {
          artifact: `import json as __json\ncontext = __json.loads(${JSON.stringify(json)})\n${code}\n`,
          tests: `def test_context():\n    print(${JSON.stringify(MARKER)} + __json.dumps(context))\n`,
        }
      : {
          artifact: `const context = JSON.parse(${JSON.stringify(json)});\n${code}\n`,
          tests: `test("context", () => { console.log(${JSON.stringify(MARKER)} + JSON.stringify(context)); });\n`,
        };
  const outcome = await runTests({ language, ...request }, { pythonExecutable, signal });
  // The server cannot run untrusted code (no bubblewrap, say): the step fails with the reason.
  // A configuration error of this server: never retried nor skipped (the engine fails the step at once).
  if (outcome.status === "unavailable") throw new StepConfigurationError(`the ${language} sandbox cannot run here, so the code step was not executed: ${outcome.message}`, "server");
  if (outcome.status !== "passed") {
    const why = "message" in outcome ? outcome.message : "the code step failed";
    return { error: `Code step failed (${outcome.status}): ${why}` };
  }
  const line = outcome.output.split("\n").reverse().find((candidate) => candidate.includes(MARKER));
  if (!line) return { error: "Code step did not report its context" };
  let after: Record<string, unknown>;
  try {
    after = JSON.parse(line.slice(line.indexOf(MARKER) + MARKER.length)) as Record<string, unknown>;
  } catch {
    return { error: "Code step left a context that is not JSON" };
  }
  const updates: Record<string, ContextValue> = {};
  for (const [name, value] of Object.entries(after)) {
    if (!Object.hasOwn(context, name) || context[name] !== value) updates[name] = value as ContextValue;
  }
  return { updates };
}
