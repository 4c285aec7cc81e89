import type { GuardLanguage } from "../../../guards/language";
import { DEFAULT_CODE_TOOL_TIMEOUT } from "./duration";
import { DEFAULT_WAIT_TIMEOUT, type RawTool } from "./tool-schema";
import type { JsonObject } from "../../../engine";
import type { ToolDeclaration } from "./tool-types";

/** What a person tool's model sends when the document gives no input_schema. */
export const DEFAULT_PERSON_INPUT_SCHEMA: JsonObject = {
  type: "object",
  properties: { question: { type: "string", description: "The question for the person, with what they need to answer it." } },
  required: ["question"],
  additionalProperties: false,
};

/** What a workflow tool's model sends when the document gives no input_schema: the sub-run's task. */
export const DEFAULT_WORKFLOW_INPUT_SCHEMA: JsonObject = {
  type: "object",
  properties: { specification: { type: "string", description: "The specification (task) of the sub-run." } },
  required: ["specification"],
  additionalProperties: false,
};

/**
 * Every default written down, so the stored definition (and its export) reads back unchanged:
 * a code tool's language (the workflow's) and timeout, a waiting tool's timeout and input schema.
 */
export function normalizeTools(tools: Readonly<Record<string, RawTool>>, language: GuardLanguage): Record<string, ToolDeclaration> {
  return Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, normalizeTool(tool, language)]));
}

function normalizeTool(tool: RawTool, language: GuardLanguage): ToolDeclaration {
  const schema = (value: Record<string, unknown>) => value as JsonObject;
  switch (tool.kind) {
    case "code":
      return { ...tool, input_schema: schema(tool.input_schema), language: tool.language ?? language, timeout: tool.timeout ?? DEFAULT_CODE_TOOL_TIMEOUT };
    case "person":
      return { ...tool, input_schema: tool.input_schema ? schema(tool.input_schema) : structuredClone(DEFAULT_PERSON_INPUT_SCHEMA), answer_schema: schema(tool.answer_schema), timeout: tool.timeout ?? DEFAULT_WAIT_TIMEOUT };
    case "workflow":
      return { ...tool, input_schema: tool.input_schema ? schema(tool.input_schema) : structuredClone(DEFAULT_WORKFLOW_INPUT_SCHEMA), timeout: tool.timeout ?? DEFAULT_WAIT_TIMEOUT };
    case "external": {
      const { result_schema, ...rest } = tool;
      return { ...rest, input_schema: schema(tool.input_schema), ...(result_schema ? { result_schema: schema(result_schema) } : {}), timeout: tool.timeout ?? DEFAULT_WAIT_TIMEOUT };
    }
  }
}
