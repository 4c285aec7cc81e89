/**
 * The shape of a workflow's `tools:` block (issue 18): a map from tool name to its declaration,
 * which agent steps list by name (`generator: { kind: agent, tools: [name] }`). Four kinds: `code`
 * (a function run in the guard sandbox), and three that wait (`person`, `workflow`, `external`).
 * Shape and schemas only; names, references and counts are checked in check-tools.ts.
 */
import { z } from "zod";
import { normalizeLanguage, type GuardLanguage } from "../../../guards/language";
import { answerSchemaProblems } from "./answer-schema";
import { CODE_TIMEOUT_BOUNDS, parseDuration, WAIT_TIMEOUT_BOUNDS, type DurationBounds } from "./duration";
import { toolSchemaProblem } from "./json-schema-check";
import { workflowNameSchema } from "../workflow-name";
import { valueAt } from "../problems";

export const TOOL_KINDS = ["code", "person", "workflow", "external"] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];
export const MAX_TOOLS = 32;
export const MAX_TOOL_CODE_BYTES = 64 * 1024;
export const MAX_TOOL_DESCRIPTION_CHARS = 4000;
/** A waiting tool's timeout when the document gives none. */
export const DEFAULT_WAIT_TIMEOUT = "24h";

/** The registry's name rule (the OpenAI function-name rule), so every declared tool can be offered to a model. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const description = z.string().trim().min(1, "must not be empty").max(MAX_TOOL_DESCRIPTION_CHARS, `must be at most ${MAX_TOOL_DESCRIPTION_CHARS} characters`);

const duration = (bounds: DurationBounds) =>
  z.string().superRefine((value, ctx) => {
    const parsed = parseDuration(value, bounds);
    if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.message });
  });

/** Any JSON Schema object within the registry's bounds that ajv compiles (patterns on the linear-time engine). */
const jsonSchema = z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
  const problem = toolSchemaProblem(schema);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** An input schema: a JSON Schema for an object, since a tool's input is always one JSON object. */
function inputSchema(requiredText?: string) {
  return jsonSchema.superRefine((schema, ctx) => {
    if (schema.type !== "object") ctx.addIssue({ code: "custom", path: ["type"], message: `must be "object": a tool's input is one JSON object` });
    if (requiredText === undefined) return;
    const properties = schema.properties as Record<string, { type?: unknown }> | undefined;
    const property = typeof properties === "object" && properties !== null ? properties[requiredText] : undefined;
    const required = Array.isArray(schema.required) && schema.required.includes(requiredText);
    if (typeof property !== "object" || property === null || property.type !== "string" || !required) {
      ctx.addIssue({ code: "custom", message: `must require a text property "${requiredText}" (properties.${requiredText}: { type: string }, listed in required)` });
    }
  });
}

const language = z.string().transform((value, ctx): GuardLanguage => {
  const normalized = normalizeLanguage(value);
  if (normalized) return normalized;
  ctx.addIssue({ code: "custom", message: `unknown language "${value}" (use python or javascript, or py, js)` });
  return z.NEVER;
});

const code = z.string().superRefine((value, ctx) => {
  if (value.trim() === "") ctx.addIssue({ code: "custom", message: "must not be empty" });
  const size = Buffer.byteLength(value, "utf8");
  if (size > MAX_TOOL_CODE_BYTES) ctx.addIssue({ code: "custom", message: `is ${size} bytes; the limit is ${MAX_TOOL_CODE_BYTES / 1024} KiB` });
});

export const codeToolSchema = z
  .object({
    kind: z.literal("code"),
    description,
    input_schema: inputSchema(),
    language: language.optional(),
    code,
    /** Wall clock of one call, sandbox start included. */
    timeout: duration(CODE_TIMEOUT_BOUNDS).optional(),
  })
  .strict();

export const personToolSchema = z
  .object({
    kind: z.literal("person"),
    description,
    input_schema: inputSchema("question").optional(),
    answer_schema: z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
      const problems = answerSchemaProblems(schema);
      for (const problem of problems) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
      const bounds = problems.length === 0 ? toolSchemaProblem(schema) : undefined;
      if (bounds) ctx.addIssue({ code: "custom", message: bounds });
    }),
    timeout: duration(WAIT_TIMEOUT_BOUNDS).optional(),
  })
  .strict();

export const workflowToolSchema = z
  .object({
    kind: z.literal("workflow"),
    workflow: workflowNameSchema,
    description,
    input_schema: inputSchema("specification").optional(),
    timeout: duration(WAIT_TIMEOUT_BOUNDS).optional(),
  })
  .strict();

export const externalToolSchema = z
  .object({
    kind: z.literal("external"),
    description,
    input_schema: inputSchema(),
    result_schema: jsonSchema.optional(),
    timeout: duration(WAIT_TIMEOUT_BOUNDS).optional(),
  })
  .strict();

const SCHEMAS = { code: codeToolSchema, person: personToolSchema, workflow: workflowToolSchema, external: externalToolSchema } as const;

/** One declaration, read by its kind so each problem names the kind's own fields. */
export const toolSchema = z.unknown().transform((value, ctx) => {
  const kind = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { kind?: unknown }).kind : undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: "custom", message: `must be a mapping with a kind (${TOOL_KINDS.join(", ")})` });
    return z.NEVER;
  }
  const schema = typeof kind === "string" && Object.hasOwn(SCHEMAS, kind) ? SCHEMAS[kind as ToolKind] : undefined;
  if (!schema) {
    ctx.addIssue({ code: "custom", path: ["kind"], message: `${kind === undefined ? "is required" : `${JSON.stringify(kind)}`}: must be one of ${TOOL_KINDS.join(", ")}` });
    return z.NEVER;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as RawTool;
  for (const issue of parsed.error.issues) {
    const path = issue.path.filter((part): part is string | number => typeof part !== "symbol");
    if (issue.code === "unrecognized_keys") for (const key of issue.keys) ctx.addIssue({ code: "custom", path: [...path, key], message: "unknown key" });
    else ctx.addIssue({ code: "custom", path, message: issue.code === "invalid_type" && valueAt(value, path) === undefined ? "is required" : issue.message });
  }
  return z.NEVER;
});

export const toolsSchema = z.record(z.string(), toolSchema);

export type RawCodeTool = z.infer<typeof codeToolSchema>;
export type RawPersonTool = z.infer<typeof personToolSchema>;
export type RawWorkflowTool = z.infer<typeof workflowToolSchema>;
export type RawExternalTool = z.infer<typeof externalToolSchema>;
export type RawTool = RawCodeTool | RawPersonTool | RawWorkflowTool | RawExternalTool;
