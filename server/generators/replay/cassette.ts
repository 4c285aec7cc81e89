/**
 * A cassette: the recorded artifacts of a run, per step and attempt, so a workflow can be run
 * again without a model (demos, tests, reproducing a bug). The JSON form is
 * `{"steps": {"implement": ["attempt 1", {"content": "attempt 2", "delay_ms": 500}]}}`.
 * Parsing is strict so a typo ("delay": 500) is an error that names its path, not a silent no-op.
 */
import { z } from "zod";
import { jsonErrorPosition } from "./json-error-position";

export const CASSETTE_FORMAT = "dualstate-cassette/1";
/** A replayed answer waits at most this long: a demo's pause, never a way to hold a worker. */
export const MAX_DELAY_MS = 60_000;

const attemptObject = z
  .object({
    content: z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") }),
    delay_ms: z.number({ error: "must be a non-negative number" }).finite("must be a non-negative number").min(0, "must be a non-negative number").max(MAX_DELAY_MS, `must be at most ${MAX_DELAY_MS} (60 s)`).optional(),
    // Kept as data for the agent generator; the replay generator only answers with `content`.
    tool_calls: z.array(z.record(z.string(), z.unknown(), { error: "must be an object" }), { error: "must be a list" }).optional(),
  })
  .strict();

type AttemptObject = z.infer<typeof attemptObject>;

/** Text or an object; dispatched by hand so a bad object's issues keep their own paths (a union's would not). */
const attempt = z.unknown().transform((value, ctx): string | AttemptObject => {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: "custom", message: "must be text or an object with content" });
    return z.NEVER;
  }
  const parsed = attemptObject.safeParse(value);
  if (parsed.success) return parsed.data;
  // Re-raised as they are (unrecognized_keys included), with paths relative to this attempt.
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
  return z.NEVER;
});

// Loose on purpose: run metadata is for people reading the file, and newer exports may add to it.
const runMetadata = z.looseObject({
  runId: z.string().optional(),
  workflow: z.string().nullable().optional(),
  workflowVersion: z.number().int().nullable().optional(),
  specification: z.string().optional(),
  status: z.string().optional(),
  recordedAt: z.string().optional(),
});

const cassetteSchema = z
  .object({
    format: z.literal(CASSETTE_FORMAT, { error: `must be "${CASSETTE_FORMAT}"` }).optional(),
    run: runMetadata.optional(),
    steps: z.record(
      z.string(),
      z.array(attempt, { error: "must be a list of attempts" }).min(1, "must list at least one attempt"),
      { error: (issue) => (issue.input === undefined ? "is required" : "must be an object mapping step names to attempts") },
    ),
  }, { error: "must be an object with steps" })
  .strict();

export type CassetteAttempt = z.infer<typeof attempt>;
export type Cassette = z.infer<typeof cassetteSchema>;

export class CassetteError extends Error {
  override readonly name = "CassetteError";
  constructor(
    readonly code: "INVALID_CASSETTE" | "CASSETTE_NOT_FOUND",
    message: string,
  ) {
    super(message);
  }
}

const MAX_NAME_LENGTH = 128;

/**
 * A cassette name, as a document writes it (`cassette: tdd-lru-cache`): letters, digits, '.', '_'
 * and '-', starting with a letter or digit, never "..". Names only: a document never names a path.
 */
export function isCassetteName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name) && !name.includes("..");
}

/** The answer an attempt gives, whichever form it was written in. */
export function attemptContent(entry: CassetteAttempt): string {
  return typeof entry === "string" ? entry : entry.content;
}

export function attemptDelayMs(entry: CassetteAttempt): number {
  return typeof entry === "string" ? 0 : (entry.delay_ms ?? 0);
}

/** The same answers with no pauses: a cassette replayed as a regression test need not be watched. */
export function withoutDelays(cassette: Cassette): Cassette {
  const steps: Cassette["steps"] = {};
  for (const [step, attempts] of Object.entries(cassette.steps)) {
    steps[step] = attempts.map((entry) => {
      if (typeof entry === "string") return entry;
      const { delay_ms: _delay, ...rest } = entry;
      return rest;
    });
  }
  return { ...cassette, steps };
}

/** `steps.implement[2].delay_ms`; keys that are not identifiers are quoted: `steps["write tests"]`. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(String(key))) text += text ? `.${String(key)}` : String(key);
    // Keys come from the cassette: a long one is shortened rather than echoed whole.
    else text += `[${JSON.stringify(String(key).length > 60 ? `${String(key).slice(0, 60)}…` : String(key))}]`;
  }
  return text || "cassette";
}

/**
 * Validates a cassette's JSON value.
 * @throws CassetteError (INVALID_CASSETTE) with one "path: problem" line per issue.
 */
export function parseCassette(json: unknown, source?: string): Cassette {
  const parsed = cassetteSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    // An unknown key is reported on its parent; name the key itself so the path points at it.
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
    return keys.map((key) => `${formatPath(key === undefined ? issue.path : [...issue.path, key])}: ${key === undefined ? issue.message : "unknown field"}`);
  });
  throw new CassetteError("INVALID_CASSETTE", `${source ? `${source}: ` : ""}invalid cassette:\n${lines.flat().join("\n")}`);
}

/**
 * Validates a cassette given as JSON text (a file's contents, or one uploaded to the dashboard).
 * Files are read by cassette-file.ts, with its size and regular-file checks.
 * @throws CassetteError (INVALID_CASSETTE) naming the line and column of bad JSON, or each field's problem.
 */
export function parseCassetteText(text: string, source: string): Cassette {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Only the position: JSON.parse's own message quotes the text, and the text is not ours to echo.
    const { line, column } = jsonErrorPosition(text);
    throw new CassetteError("INVALID_CASSETTE", `${source}: not valid JSON at line ${line}, column ${column}`);
  }
  return parseCassette(json, source);
}
