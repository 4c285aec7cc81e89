/**
 * A cassette: the recorded answers of a run, per step, so a workflow can be run again without a
 * model (demos, tests, reproducing a bug). The JSON form is
 * `{"steps": {"implement": ["attempt 1", {"content": "attempt 2", "delay_ms": 500}]}}`.
 *
 * - A step whose generator is not an agent: entry N is attempt N's answer.
 * - A step whose own generator is `kind: agent`: the entries are the model's TURNS, in order,
 *   across the step's attempts. An entry with `tool_calls: [{name, arguments}]` is a turn that
 *   calls tools (its `content`, if any, is the text beside the calls); an entry without is a
 *   final answer and ends its attempt. An attempt also ends after the agent's `max_turns` turns,
 *   as a live one does. The agent really runs, its tools too (code tools in the sandbox); only
 *   the model's replies come from here (cassette-chat-model.ts).
 * - `reports: {<tool name>: [result, ...]}`: results of tools that wait (person, external). A
 *   replayed agent's call of such a tool gets entry N for attempt N at once (the last entry for
 *   later attempts) instead of waiting; a tool with no entry waits as usual. Workflow tools always
 *   start their sub-run, which replays from the same cassette: `steps` then holds the
 *   sub-workflow's step names too.
 *
 * Parsing is strict so a typo ("delay": 500) is an error that names its path, not a silent no-op.
 */
import { z } from "zod";
import { depthExceeds, MAX_INPUT_DEPTH } from "../../engine/policy/input-bounds";
import { jsonErrorPosition } from "./json-error-position";

export const CASSETTE_FORMAT = "dualstate-cassette/1";
/** A replayed answer waits at most this long: a demo's pause, never a way to hold a worker. */
export const MAX_DELAY_MS = 60_000;

/** Calls one recorded turn may make: the agent runs at most this many per turn anyway (decorators.ts). */
export const MAX_CASSETTE_TOOL_CALLS = 16;
/** Recorded results of one waiting tool. */
export const MAX_REPORTS_PER_TOOL = 100;
/** A tool's name as the agent's registry and the workflow's `tools:` block spell it. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const TOOL_NAME_RULE = "must be 1 to 64 of A-Z a-z 0-9 _ -";

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON text of an object, as a model writes arguments, or the object itself. */
const toolArguments = z.unknown().superRefine((value, ctx) => {
  if (isPlainObject(value)) return;
  if (typeof value === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be JSON text of an object (not valid JSON)" });
      return;
    }
    if (!isPlainObject(parsed)) ctx.addIssue({ code: "custom", message: "must be JSON text of an object" });
    return;
  }
  ctx.addIssue({ code: "custom", message: "must be an object or JSON text of one" });
});

const toolCall = z
  .object(
    {
      name: z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") }).regex(TOOL_NAME, TOOL_NAME_RULE),
      // Absent: the call sends `{}`.
      arguments: toolArguments.optional(),
    },
    { error: "must be an object with name and arguments" },
  )
  .strict();

const attemptObject = z
  .object({
    // Required unless the entry is a turn that calls tools.
    content: z.string({ error: "must be text" }).optional(),
    delay_ms: z.number({ error: "must be a non-negative number" }).finite("must be a non-negative number").min(0, "must be a non-negative number").max(MAX_DELAY_MS, `must be at most ${MAX_DELAY_MS} (60 s)`).optional(),
    // An agent's turn that calls tools; see the comment at the top.
    tool_calls: z
      .array(toolCall, { error: "must be a list" })
      .min(1, "must list at least one call (an entry without tool_calls is a final answer)")
      .max(MAX_CASSETTE_TOOL_CALLS, `must list at most ${MAX_CASSETTE_TOOL_CALLS} calls`)
      .optional(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.content === undefined && entry.tool_calls === undefined) ctx.addIssue({ code: "custom", path: ["content"], message: "is required (or tool_calls, for an agent's turn that calls tools)" });
  });

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

/** A recorded report becomes a ledger row and is read by the model: bounded like a reported result (services/tool-calls/result-bounds.ts). */
export const MAX_REPORT_BYTES = 256 * 1024;

const reportResult = z.record(z.string(), z.unknown(), { error: "must be a JSON object (the tool's result)" }).superRefine((result, ctx) => {
  // Depth first: serializing something nested a million deep would overflow the stack.
  if (depthExceeds(result, MAX_INPUT_DEPTH)) {
    ctx.addIssue({ code: "custom", message: `nests deeper than ${MAX_INPUT_DEPTH} levels` });
    return;
  }
  const size = new TextEncoder().encode(JSON.stringify(result)).length;
  if (size > MAX_REPORT_BYTES) ctx.addIssue({ code: "custom", message: `is ${size} bytes of JSON, more than the ${MAX_REPORT_BYTES / 1024} KiB a result may have` });
});

/** A judge's recorded verdict: what an llm_judge guard answered for one attempt of a step. */
const MAX_JUDGE_FEEDBACK_CHARS = 65_536;
const judgeVerdict = z
  .object({
    passed: z.boolean({ error: "must be true or false" }),
    feedback: z.string({ error: "must be text" }).max(MAX_JUDGE_FEEDBACK_CHARS, `must be at most ${MAX_JUDGE_FEEDBACK_CHARS} characters`).default(""),
  }, { error: "must be an object with passed and feedback" })
  .strict();

const cassetteSchema = z
  .object({
    format: z.literal(CASSETTE_FORMAT, { error: `must be "${CASSETTE_FORMAT}"` }).optional(),
    run: runMetadata.optional(),
    steps: z.record(
      z.string(),
      z.array(attempt, { error: "must be a list of attempts" }).min(1, "must list at least one attempt"),
      { error: (issue) => (issue.input === undefined ? "is required" : "must be an object mapping step names to attempts") },
    ),
    reports: z
      .record(
        z.string(),
        z.array(reportResult, { error: "must be a list of results" }).min(1, "must list at least one result").max(MAX_REPORTS_PER_TOOL, `must list at most ${MAX_REPORTS_PER_TOOL} results`),
        { error: "must be an object mapping tool names to results" },
      )
      // Checked here rather than as the record's key schema, so the problem names the key.
      .superRefine((reports, ctx) => {
        for (const name of Object.keys(reports)) if (!TOOL_NAME.test(name)) ctx.addIssue({ code: "custom", path: [name], message: `is not a tool name: ${TOOL_NAME_RULE}` });
      })
      .optional(),
    /**
     * The llm_judge verdicts of a replayed run, per step in attempt order (attempt N reads
     * `judges[step][N - 1]`), so a run whose guards include a judge replays without a model.
     */
    judges: z
      .record(z.string(), z.array(judgeVerdict, { error: "must be a list of verdicts" }).min(1, "must list at least one verdict"), { error: "must be an object mapping step names to verdicts" })
      .optional(),
  }, { error: "must be an object with steps" })
  .strict();

export type CassetteAttempt = z.infer<typeof attempt>;
export type JudgeVerdict = z.infer<typeof judgeVerdict>;
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

/** The answer an attempt gives, whichever form it was written in (a turn that calls tools: the text beside the calls). */
export function attemptContent(entry: CassetteAttempt): string {
  return typeof entry === "string" ? entry : (entry.content ?? "");
}

export interface CassetteToolCall {
  readonly name: string;
  /** JSON text, as the model would have written it. */
  readonly arguments: string;
}

/** The calls of an agent's turn; none for a final answer. */
export function attemptToolCalls(entry: CassetteAttempt): readonly CassetteToolCall[] {
  if (typeof entry === "string" || !entry.tool_calls) return [];
  return entry.tool_calls.map((call) => ({
    name: call.name,
    arguments: call.arguments === undefined ? "{}" : typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
}

/**
 * The recorded result of waiting tool `tool` for `attempt` (from 1): that attempt's entry, the
 * last one for later attempts; undefined when the cassette records none (the tool waits).
 */
export function recordedReport(cassette: Cassette, tool: string, attempt: number): Record<string, unknown> | undefined {
  const results = cassette.reports && Object.hasOwn(cassette.reports, tool) ? cassette.reports[tool] : undefined;
  if (!results || results.length === 0) return undefined;
  return results[Math.min(Math.max(attempt, 1), results.length) - 1];
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
