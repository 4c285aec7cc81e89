import { CallFailedError } from "../../engine";
import type { ToolDefinition } from "./tool-registry";

/** Reads an artifact this step depends on (e.g. the tests of a TDD step). */
export const readDependencyTool: ToolDefinition = {
  name: "read_dependency",
  description: "Read an artifact this step depends on, by name (for example \"test\" for the tests written by an earlier step).",
  inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false },
  async run(input, context) {
    const name = String(input.name);
    const dependency = context.dependencies[name];
    if (!dependency) {
      const available = Object.keys(context.dependencies);
      throw new CallFailedError("NOT_FOUND", `No dependency "${name}". ${available.length ? `Available: ${available.join(", ")}` : "This step has no dependencies."}`);
    }
    return { name, content: dependency.content };
  },
};

/** Checks a draft against the step's non-fatal guards before the agent commits to it. */
export const checkDraftTool: ToolDefinition = {
  name: "check_draft",
  description: "Check a draft of the artifact against this step's guards (syntax, tests...) and get their verdict and feedback.",
  inputSchema: { type: "object", properties: { content: { type: "string" } }, required: ["content"], additionalProperties: false },
  async run(input, context) {
    if (!context.checkDraft) throw new CallFailedError("UNAVAILABLE", "This step has no guards that can check drafts.");
    const verdict = await context.checkDraft(String(input.content));
    return { passed: verdict.passed, feedback: verdict.feedback };
  },
};

/** Reads the specification of the run (Ψ). */
export const readSpecificationTool: ToolDefinition = {
  name: "read_specification",
  description: "Read the specification this run must satisfy.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  async run(_input, context) {
    return { specification: context.specification };
  },
};

export const BUILTIN_TOOLS: readonly ToolDefinition[] = [readDependencyTool, checkDraftTool, readSpecificationTool];
