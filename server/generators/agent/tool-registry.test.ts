import { describe, expect, it } from "vitest";
import { CallFailedError, isEngineError, StepConfigurationError } from "../../engine";
import { checkDraftTool } from "./builtin-tools";
import { ToolRegistry } from "./tool-registry";

const registry = () => new ToolRegistry().register(checkDraftTool);
const context = (checkDraft: (content: string) => Promise<{ passed: boolean; fatal: boolean; feedback: string }>) => ({ specification: "s", dependencies: {}, checkDraft });

describe("a tool call the model made", () => {
  it("hands a tool's own failure back to the model as a TOOL_FAILED result", async () => {
    const failing = registry().invoke("check_draft", '{"content": "x"}', context(async () => Promise.reject(new Error("disk full"))));
    await expect(failing).rejects.toThrow(CallFailedError);
    await expect(failing).rejects.toThrow("check_draft failed: disk full");
  });

  it("lets a guard configuration error through, so the step fails instead of the model being told", async () => {
    const misconfigured = registry().invoke("check_draft", '{"content": "x"}', context(async () => Promise.reject(new StepConfigurationError("the tdd guard takes its tests from a dependency named test"))));
    const error = await misconfigured.then(
      () => expect.fail("expected the configuration error"),
      (caught: unknown) => caught,
    );
    expect(isEngineError(error, "STEP_CONFIGURATION")).toBe(true);
    expect(error).not.toBeInstanceOf(CallFailedError);
  });
});
