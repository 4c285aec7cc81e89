/**
 * The plain-object form of a generator, as workflow steps write it: `{ kind: "openai", model }`,
 * `{ kind: "agent", max_turns }`, `{ kind: "replay", cassette }`, or `{ kind: "llm" }` for the
 * configured default model. Strict: an unknown option or a wrong type names the field.
 */
import { z } from "zod";
import { GENERATOR_KINDS } from "../engine/domain/catalogue";
import { CassetteError, isCassetteName, parseCassette } from "./replay/cassette";

export { GENERATOR_KINDS };

const positiveInt = (max: number) => z.number().int("must be a whole number").positive("must be positive").max(max, `must be at most ${max}`);
const modelOptions = {
  /** A model endpoint by name (Admin → Models, or "environment" for OPENAI_*); the default endpoint when absent. */
  endpoint: z.string().min(1, "must not be empty").max(64, "must be at most 64 characters").optional(),
  model: z.string().min(1, "must not be empty").optional(),
  temperature: z.number().min(0, "must be between 0 and 2").max(2, "must be between 0 and 2").optional(),
  /** "code": the first fenced code block of the reply; "text": the whole reply. */
  extract: z.enum(["code", "text"]).optional(),
  system_prompt: z.string().optional(),
  timeout_ms: positiveInt(600_000).optional(),
  max_retries: z.number().int().min(0).max(10).optional(),
  max_reply_bytes: positiveInt(64 * 1024 * 1024).optional(),
};

const openAiSpec = z.object({ kind: z.enum(["openai", "llm"]), ...modelOptions }).strict();
/** The registry's name rule; whether each is declared in the workflow's `tools:` is the validator's check. */
const toolName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 of A-Z a-z 0-9 _ -");
const agentSpec = z
  .object({
    kind: z.literal("agent"),
    ...modelOptions,
    max_turns: positiveInt(100).optional(),
    /** Tools declared in the workflow's `tools:` block that this agent may call, besides the built-in ones. */
    tools: z.array(toolName).max(32, "must list at most 32 tools").optional(),
  })
  .strict();
const replaySpec = z
  .object({
    kind: z.literal("replay"),
    /**
     * The cassette itself, or the name of one in the cassette directory an administrator
     * configured (DUALSTATE_CASSETTE_DIR) or among the bundled examples. Never a path.
     */
    cassette: z.union(
      [
        z.string().min(1).refine(isCassetteName, { message: "must be a cassette name (letters, digits, '.', '_', '-'; no path) or a cassette object" }),
        // Checked when the document is validated, so a bad cassette (a delay_ms over 60 s) is named before any run.
        z.record(z.string(), z.unknown()).superRefine((cassette, ctx) => {
          try {
            parseCassette(cassette);
          } catch (error) {
            if (!(error instanceof CassetteError)) throw error;
            ctx.addIssue({ code: "custom", message: error.message.replace(/^invalid cassette:\n/, "").replace(/\n/g, "; ") });
          }
        }),
      ],
      { message: "must be a cassette name or a cassette object" },
    ),
  })
  .strict();

export type OpenAiGeneratorSpec = z.infer<typeof openAiSpec>;
export type AgentGeneratorSpec = z.infer<typeof agentSpec>;
export type ReplayGeneratorSpec = z.infer<typeof replaySpec>;
export type GeneratorSpec = OpenAiGeneratorSpec | AgentGeneratorSpec | ReplayGeneratorSpec;

export class GeneratorSpecError extends Error {
  override readonly name = "GeneratorSpecError";
  readonly code = "INVALID_GENERATOR";
}

/** Parses a generator object; each problem is reported as "path: message". */
export function parseGeneratorSpec(input: unknown, where = "generator"): GeneratorSpec {
  const kind = typeof input === "object" && input !== null ? (input as { kind?: unknown }).kind : undefined;
  const schema = kind === "agent" ? agentSpec : kind === "replay" ? replaySpec : kind === "openai" || kind === "llm" ? openAiSpec : undefined;
  if (!schema) {
    const got = kind === undefined ? "missing" : `"${String(kind)}"`;
    throw new GeneratorSpecError(`${where}.kind: ${got}: must be one of ${GENERATOR_KINDS.join(", ")}`);
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new GeneratorSpecError(
    parsed.error.issues.map((issue) => `${where}${issue.path.length ? `.${issue.path.join(".")}` : ""}: ${issue.message}`).join("\n"),
  );
}
