import { CallFailedError, StepConfigurationError, type JsonObject } from "../../../engine";
import type { ToolDefinition } from "../../../generators/agent/tool-registry";
import type { GuardLanguage } from "../../../guards/language";
import { runTests } from "../../../sandbox/run-tests";
import type { TestRunOutcome } from "../../../sandbox/types";
import { CODE_TIMEOUT_BOUNDS, durationMs } from "../../definition/tools/duration";
import type { CodeToolDeclaration } from "../../definition/tools/tool-types";

/** The model's arguments to a code tool, written into the code the sandbox runs. */
export const CODE_TOOL_INPUT_BYTES = 256 * 1024;
/** Console output a call may produce, its result included: a bigger result is refused, never cut. */
export const CODE_TOOL_OUTPUT_BYTES = 64 * 1024;
const MARKER = "__DUALSTATE_TOOL_RESULT__";

/** The codes a code tool's failure carries, as the model reads them. */
export const CODE_TOOL_ERRORS = { failed: "TOOL_ERROR", timeout: "TIMEOUT", outputTooLarge: "OUTPUT_TOO_LARGE", limit: "LIMIT" } as const;

/**
 * A `kind: code` tool: the declared code defines `run(input)` (Python `def run(input):`,
 * JavaScript `function run(input)`, which may be async) returning a JSON object; each call runs it
 * in the guard sandbox of its language (QuickJS; Python inside the bubblewrap boundary) with the
 * tool's wall clock and a bounded output. The code's exception, a timeout or an oversized result
 * is the call's failure as data (CallFailedError), which the model reads; a server without the
 * sandbox stops the step (StepConfigurationError), as for code steps.
 */
export function codeTool(name: string, declaration: CodeToolDeclaration, options: { readonly pythonExecutable?: string } = {}): ToolDefinition {
  const wallClockMs = durationMs(declaration.timeout, CODE_TIMEOUT_BOUNDS);
  return {
    name,
    description: declaration.description,
    inputSchema: declaration.input_schema,
    maxInputBytes: CODE_TOOL_INPUT_BYTES,
    async run(input, context) {
      const outcome = await runTests(
        { language: declaration.language, ...harness(declaration.language, declaration.code, input), limits: { wallClockMs, outputBytes: CODE_TOOL_OUTPUT_BYTES } },
        { pythonExecutable: options.pythonExecutable, signal: context.signal },
      );
      return resultOf(name, declaration, outcome);
    },
  };
}

/** The code as the artifact; a one-test harness calls run(input) and prints the result after a marker. */
function harness(language: GuardLanguage, code: string, input: JsonObject): { artifact: string; tests: string } {
  const json = JSON.stringify(input);
  if (language === "python") {
    return {
      artifact: `${code}\n`,
      tests: [
        "import json as __dualstate_json",
        "def test_tool():",
        `    __result = run(__dualstate_json.loads(${JSON.stringify(json)}))`,
        "    if not isinstance(__result, dict):",
        `        raise TypeError("run(input) must return a dict (a JSON object), not " + type(__result).__name__)`,
        `    print(${JSON.stringify(MARKER)} + __dualstate_json.dumps(__result, allow_nan=False))`,
        "",
      ].join("\n"),
    };
  }
  return {
    artifact: `${code}\n`,
    tests: [
      `test("tool", async () => {`,
      `  const result = await run(JSON.parse(${JSON.stringify(json)}));`,
      `  if (typeof result !== "object" || result === null || Array.isArray(result)) throw new TypeError("run(input) must return an object (a JSON object), not " + (Array.isArray(result) ? "an array" : result === null ? "null" : typeof result));`,
      `  console.log(${JSON.stringify(MARKER)} + JSON.stringify(result));`,
      `});`,
      "",
    ].join("\n"),
  };
}

function resultOf(name: string, declaration: CodeToolDeclaration, outcome: TestRunOutcome): JsonObject {
  switch (outcome.status) {
    case "unavailable":
      throw new StepConfigurationError(`the ${declaration.language} sandbox cannot run here, so tool "${name}" was not run: ${outcome.message}`, "server");
    case "limit":
      if (outcome.limit === "wall_clock" || outcome.limit === "cpu") {
        throw new CallFailedError(CODE_TOOL_ERRORS.timeout, `${name} was stopped at its time limit of ${declaration.timeout}: ${outcome.message}`);
      }
      if (outcome.limit === "output") {
        throw new CallFailedError(CODE_TOOL_ERRORS.outputTooLarge, `${name} produced more than ${CODE_TOOL_OUTPUT_BYTES / 1024} KiB of output (its result and anything it printed): return less`);
      }
      throw new CallFailedError(CODE_TOOL_ERRORS.limit, `${name} hit the sandbox's ${outcome.limit} limit: ${outcome.message}`);
    case "failed":
      throw new CallFailedError(CODE_TOOL_ERRORS.failed, `${name} raised: ${outcome.tests.find((test) => !test.passed)?.message ?? "the call failed"}`);
    case "error":
    case "incomplete":
      throw new CallFailedError(CODE_TOOL_ERRORS.failed, `${name} failed: ${outcome.message}`);
    case "passed":
      return reportedResult(name, outcome.output);
  }
}

function reportedResult(name: string, output: string): JsonObject {
  const line = output.split("\n").findLast((candidate) => candidate.startsWith(MARKER));
  if (line === undefined) throw new CallFailedError(CODE_TOOL_ERRORS.failed, `${name} did not report a result`);
  try {
    return JSON.parse(line.slice(MARKER.length)) as JsonObject;
  } catch {
    throw new CallFailedError(CODE_TOOL_ERRORS.failed, `${name} returned a result that is not JSON`);
  }
}
