/**
 * The plain-object form of a guard, `{ kind, ...options }`, as workflow definitions and the CLI
 * write it. Option names are snake_case like the rest of the workflow format. Parsing is strict:
 * an unknown option or a wrong type is an error that names the field.
 */
import { z } from "zod";
import { GUARD_KINDS, type GuardKind } from "../engine/domain/catalogue";
import { DEFAULT_SANDBOX_LIMITS, SANDBOX_LIMIT_RANGES } from "../sandbox/types";
import { normalizeLanguage, type GuardLanguage } from "./language";

// The kinds and their explanations are listed once, in the catalogue the designer's palette shows.
export { GUARD_KINDS, type GuardKind };

const language = z.string().transform((value, ctx): GuardLanguage => {
  const normalized = normalizeLanguage(value);
  if (normalized) return normalized;
  ctx.addIssue({ code: "custom", message: `unknown language "${value}" (use javascript, typescript or python)` });
  return z.NEVER;
});

const limitValue = (max: number) => z.number().int("must be a whole number").positive("must be positive").max(max, `must be at most ${max}`);
/** A sandbox limit: only values both sandboxes (QuickJS and Python) can honour, with the range in the message. */
const sandboxLimit = ({ min, max }: { readonly min: number; readonly max: number }, unit: string) =>
  z
    .number()
    .int("must be a whole number")
    .min(min, `must be between ${min} and ${max} ${unit}`)
    .max(max, `must be between ${min} and ${max} ${unit}`);
const limits = z
  .object({
    wall_clock_ms: sandboxLimit(SANDBOX_LIMIT_RANGES.wallClockMs, "ms").optional(),
    cpu_ms: sandboxLimit(SANDBOX_LIMIT_RANGES.cpuMs, "ms").optional(),
    memory_mb: sandboxLimit(SANDBOX_LIMIT_RANGES.memoryMb, "MB (the JavaScript sandbox's WebAssembly memory holds at most 2032 MB for the code)").optional(),
    output_bytes: sandboxLimit(SANDBOX_LIMIT_RANGES.outputBytes, "bytes").optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    const wallClock = value.wall_clock_ms ?? DEFAULT_SANDBOX_LIMITS.wallClockMs;
    if (value.cpu_ms !== undefined && value.cpu_ms > wallClock) {
      const which = value.wall_clock_ms === undefined ? `the default wall_clock_ms of ${wallClock}` : `wall_clock_ms (${wallClock})`;
      ctx.addIssue({ code: "custom", path: ["cpu_ms"], message: `must be at most ${which}: a run is stopped at the wall clock before it could use more CPU time` });
    }
  });

/** Every guard may cap its own running time; past it the verdict is a failure saying so. */
const common = { timeout_ms: limitValue(600_000).optional() };

const syntaxSpec = z.object({ kind: z.literal("syntax"), language: language.optional(), ...common }).strict();
const testSpec = z.object({ kind: z.literal("test"), test: z.string().optional(), language: language.optional(), limits: limits.optional(), ...common }).strict();
const tddSpec = z.object({ kind: z.literal("tdd"), language: language.optional(), limits: limits.optional(), ...common }).strict();
const securitySpec = z
  .object({
    kind: z.literal("security"),
    language: language.optional(),
    allow_modules: z.array(z.string()).optional(),
    allow_calls: z.array(z.string()).optional(),
    ...common,
  })
  .strict();
const jsonSchemaSpec = z
  .object({ kind: z.literal("json_schema"), schema: z.union([z.boolean(), z.record(z.string(), z.unknown())], { message: "must be a JSON Schema object" }), ...common })
  .strict();
const llmJudgeSpec = z
  .object({
    kind: z.literal("llm_judge"),
    rubric: z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") }).trim().min(1, "must describe what the judge checks"),
    model: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** Ask the endpoint for a JSON object response (response_format); turn off for servers without it. */
    json_mode: z.boolean().optional(),
    ...common,
  })
  .strict();
const humanSpec = z.object({ kind: z.literal("human"), instructions: z.string().optional(), ...common }).strict();

export type SyntaxSpec = z.infer<typeof syntaxSpec>;
export type TestSpec = z.infer<typeof testSpec>;
export type TddSpec = z.infer<typeof tddSpec>;
export type SecuritySpec = z.infer<typeof securitySpec>;
export type JsonSchemaSpec = z.infer<typeof jsonSchemaSpec>;
export type LlmJudgeSpec = z.infer<typeof llmJudgeSpec>;
export type HumanSpec = z.infer<typeof humanSpec>;
export type LimitsSpec = z.infer<typeof limits>;
export interface CompositeSpec {
  kind: "all_of" | "any_of";
  guards: GuardSpec[];
  timeout_ms?: number;
}
export type GuardSpec = SyntaxSpec | TestSpec | TddSpec | SecuritySpec | JsonSchemaSpec | LlmJudgeSpec | HumanSpec | CompositeSpec;

const compositeSpec = (kind: "all_of" | "any_of") =>
  z
    .object({
      kind: z.literal(kind),
      guards: z.array(z.lazy((): z.ZodType<GuardSpec> => guardSpecSchema)).min(1, "must list at least one guard"),
      ...common,
    })
    .strict();

const BY_KIND: Record<GuardKind, z.ZodType<GuardSpec>> = {
  syntax: syntaxSpec,
  test: testSpec,
  tdd: tddSpec,
  security: securitySpec,
  json_schema: jsonSchemaSpec,
  llm_judge: llmJudgeSpec,
  human: humanSpec,
  all_of: compositeSpec("all_of"),
  any_of: compositeSpec("any_of"),
};

/** The options a kind accepts, from its schema (the catalogue's entries are checked against these). */
export function guardOptionNames(kind: GuardKind): string[] {
  return Object.keys((BY_KIND[kind] as unknown as z.ZodObject).shape).filter((name) => name !== "kind");
}

/** Dispatches on `kind` first so an unknown kind gets its own message, not a union's. */
const guardSpecSchema: z.ZodType<GuardSpec> = z.unknown().transform((value, ctx): GuardSpec => {
  const kind = typeof value === "object" && value !== null ? (value as { kind?: unknown }).kind : undefined;
  const schema = typeof kind === "string" ? BY_KIND[kind as GuardKind] : undefined;
  if (!schema) {
    const got = kind === undefined ? "missing" : `"${String(kind)}"`;
    ctx.addIssue({ code: "custom", path: ["kind"], message: `${got}: must be one of ${GUARD_KINDS.join(", ")}` });
    return z.NEVER;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: "custom", message: issue.message, path: issue.path });
  return z.NEVER;
});

export class GuardSpecError extends Error {
  override readonly name = "GuardSpecError";
  readonly code = "INVALID_GUARD";
}

/** Parses a guard object; the error lists each problem as "path: message", e.g. "guards.0.rubric: ...". */
export function parseGuardSpec(input: unknown, where = "guard"): GuardSpec {
  const parsed = guardSpecSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return `${where}${path ? `.${path}` : ""}: ${issue.message}`;
  });
  throw new GuardSpecError(lines.join("\n"));
}
