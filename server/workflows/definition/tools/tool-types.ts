import type { JsonObject } from "../../../engine";
import type { GuardLanguage } from "../../../guards/language";

/**
 * A declared tool with every default written down (normalize-tools.ts), as the stored definition
 * keeps it and `dualstate export` prints it. Keys stay snake_case like the document.
 */
export type ToolDeclaration = CodeToolDeclaration | PersonToolDeclaration | WorkflowToolDeclaration | ExternalToolDeclaration;

export interface CodeToolDeclaration {
  kind: "code";
  description: string;
  input_schema: JsonObject;
  language: GuardLanguage;
  /** Defines `run(input)` (Python `def run(input):`, JavaScript `function run(input)`) returning a JSON object. */
  code: string;
  timeout: string;
}

export interface PersonToolDeclaration {
  kind: "person";
  description: string;
  /** Requires a text `question`. */
  input_schema: JsonObject;
  /** The answer form (answer-schema.ts). */
  answer_schema: JsonObject;
  timeout: string;
}

export interface WorkflowToolDeclaration {
  kind: "workflow";
  /** Another workflow's name: the sub-run's workflow. */
  workflow: string;
  description: string;
  /** Requires a text `specification`: the sub-run's specification. */
  input_schema: JsonObject;
  timeout: string;
}

export interface ExternalToolDeclaration {
  kind: "external";
  description: string;
  input_schema: JsonObject;
  /** The report must match it when given. */
  result_schema?: JsonObject;
  timeout: string;
}
