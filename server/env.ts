/**
 * The only reader of process.env. Validated once, with messages that name the variable;
 * everything else receives configuration as arguments.
 */
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { z } from "zod";
import { EnvError } from "./env-error";
import { accountEmailSchema, DEFAULT_ADMIN_EMAIL } from "./auth/account-email";
import { passwordProblem } from "./auth/password-rules";
import { parseProxyRange, type ProxyRange } from "./auth/trusted-proxies";
import { parseReminderHours } from "./notifications/reminder-event";

const DEFAULT_DATABASE_URL = "file:./data/dualstate.db";

const databaseUrl = z
  .string()
  .refine((url) => /^file:.+/.test(url) || /^postgres(ql)?:\/\/.+/.test(url), {
    message: "must be file:PATH for SQLite or postgresql://... for PostgreSQL",
  });

const port = z.coerce
  .number({ message: "must be a port number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

/** "10.0.0.0/8, 192.168.1.7, ::1" → ranges; each bad entry reported by its position. */
const trustedProxies = z.string().transform((value, context): ProxyRange[] => {
  const entries = value.split(/[\s,]+/).filter(Boolean);
  if (entries.length > 256) {
    context.addIssue({ code: "custom", message: "must list at most 256 addresses or ranges" });
    return z.NEVER;
  }
  const ranges: ProxyRange[] = [];
  entries.forEach((entry, index) => {
    const range = parseProxyRange(entry);
    if (typeof range === "string") context.addIssue({ code: "custom", message: `entry ${index + 1} (${JSON.stringify(entry.slice(0, 60))}) ${range}` });
    else ranges.push(range);
  });
  return ranges;
});

export const envSchema = z.object({
  DATABASE_URL: databaseUrl.default(DEFAULT_DATABASE_URL),
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL such as http://localhost:11434/v1" }).optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().min(1, "must not be empty").optional(),
  PORT: port.default(3000),
  /** `npm start` runs a worker in its own process unless this is false (then run `dualstate worker`). */
  DUALSTATE_EMBEDDED_WORKER: z.enum(["true", "false"], { message: "must be true or false" }).default("true"),
  /** Turns one worker process executes at once. */
  DUALSTATE_WORKER_CONCURRENCY: z.coerce.number({ message: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(64, "must be at most 64").default(2),
  /** How long a worker's claim on a run lasts without a heartbeat; a dead worker's runs are reclaimed after it. */
  DUALSTATE_LEASE_SECONDS: z.coerce.number({ message: "must be a number" }).min(1, "must be at least 1").max(3600, "must be at most 3600").default(30),
  /** How long a run waits for a person's decision before its escalation expires and the run fails. */
  DUALSTATE_ESCALATION_TIMEOUT_HOURS: z.coerce.number({ message: "must be a number" }).positive("must be positive").max(24 * 365, "must be at most 8760").default(72),
  /** SQLite durability: FULL syncs every commit, NORMAL (WAL) may lose the last commits on power loss. */
  DUALSTATE_SQLITE_SYNCHRONOUS: z.enum(["FULL", "NORMAL"], { message: "must be FULL or NORMAL" }).default("FULL"),
  /**
   * The first admin, created on a start with no users; without a password one is generated and
   * printed once. Held to the sign-in's own email rule, so the admin can always sign in.
   */
  DUALSTATE_ADMIN_EMAIL: accountEmailSchema.default(DEFAULT_ADMIN_EMAIL),
  DUALSTATE_ADMIN_PASSWORD: z
    .string()
    .superRefine((password, ctx) => {
      const problem = passwordProblem(password);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional(),
  /** Signs session cookies; generated once and kept in the database when unset. At least 32 characters. */
  DUALSTATE_AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * The secret the API keys of model endpoints (Admin → Models) are encrypted with (HKDF → AES-256-GCM);
   * the auth secret when unset. At least 32 characters; changing it means entering the keys again.
   */
  DUALSTATE_SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /** The address people use (https://… makes cookies Secure); also read from X-Forwarded-Proto per request. */
  /**
   * The reverse proxies in front of the server whose X-Forwarded-For / Forwarded / X-Real-IP headers
   * are believed (comma-separated addresses or CIDR ranges); unset believes none of them.
   */
  DUALSTATE_TRUSTED_PROXIES: trustedProxies.optional(),
  DUALSTATE_BASE_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL such as https://dualstate.example.com" }).optional(),
  /**
   * The directory of replay cassettes that documents may name (`cassette: my-demo` reads
   * my-demo.cassette.json here); nothing outside it is ever read for a document. Unset: only the
   * bundled examples' cassettes can be named.
   */
  DUALSTATE_CASSETTE_DIR: z
    .string()
    .refine((path) => isAbsolute(path), { message: "must be an absolute path to a directory" })
    .refine((path) => isDirectory(path), { message: "must be an existing directory" })
    .optional(),
  /** On SIGTERM, how long running turns may go on before they are aborted and handed back to the inbox. */
  DUALSTATE_DRAIN_SECONDS: z.coerce.number({ message: "must be a number" }).min(0, "must be at least 0").max(3600, "must be at most 3600").default(30),
  /** Where escalation events (created, decided) are POSTed; unset sends none. */
  DUALSTATE_WEBHOOK_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
  /** The HMAC-SHA256 key the webhook's x-dualstate-signature is made with; required with DUALSTATE_WEBHOOK_URL. */
  DUALSTATE_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  /** The SMTP server escalation emails go through; unset sends none. */
  DUALSTATE_SMTP_URL: z.url({ protocol: /^smtps?$/, message: "must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587" }).optional(),
  /** Hours before an escalation's deadline at which its reviewers are reminded by email ("24, 2"); "none" for none. */
  DUALSTATE_REMINDER_HOURS: z
    .string()
    .transform((text, context): number[] => {
      try {
        return parseReminderHours(text);
      } catch (error) {
        context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
        return z.NEVER;
      }
    })
    .default([24]),
  /** The From of escalation emails ("Dualstate <dualstate@example.com>"); required with DUALSTATE_SMTP_URL. */
  DUALSTATE_SMTP_FROM: z.string().regex(/^[^\r\n]{0,200}<?[^\s@<>]+@[^\s@<>]+>?$/, "must be an email address, optionally with a name: Dualstate <dualstate@example.com>").optional(),
  /** A Slack incoming webhook for escalations offered to every reviewer (and groups without a Slack destination of their own); unset sends none. */
  DUALSTATE_SLACK_WEBHOOK_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL such as https://hooks.slack.com/services/T000/B000/XXXX" }).optional(),
  /** A Slack app's bot token (xoxb-…): direct messages to reviewers, group channels, interactive buttons. */
  DUALSTATE_SLACK_BOT_TOKEN: z.string().regex(/^xox[bp]-[A-Za-z0-9-]{1,250}$/, "must be a Slack bot token (xoxb-…)").optional(),
  /** The Slack app's signing secret: the button clicks Slack sends are verified with it; required with DUALSTATE_SLACK_BOT_TOKEN. */
  DUALSTATE_SLACK_SIGNING_SECRET: z.string().min(16, "must be at least 16 characters").max(256, "must be at most 256 characters").optional(),
  /** Slack's Web API; changed only to point at a test server. */
  DUALSTATE_SLACK_API_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL such as https://slack.com/api" }).default("https://slack.com/api"),
  /** Serves Prometheus metrics at /metrics without a session (docs/observability.md); unset or 0: /metrics answers 404. */
  DUALSTATE_METRICS: z.enum(["1", "0", "true", "false"], { message: "must be 1 or 0" }).optional(),
  /** When set, a scrape of /metrics must send `Authorization: Bearer <token>`. */
  DUALSTATE_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** Workers export OpenTelemetry traces over OTLP/HTTP to this endpoint (/v1/traces is appended); unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, message: "must be an http(s) URL such as http://localhost:4318" }).optional(),
  /** The traces endpoint itself (used as is); overrides OTEL_EXPORTER_OTLP_ENDPOINT for traces. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/, message: "must be an http(s) URL such as http://localhost:4318/v1/traces" }).optional(),
  OTEL_SDK_DISABLED: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
  OTEL_TRACES_SAMPLER: z
    .enum(["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"], {
      message: "must be always_on, always_off, traceidratio or their parentbased_ forms",
    })
    .optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number({ message: "must be a number" }).min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").optional(),
}).refine((env) => !env.DUALSTATE_WEBHOOK_URL || env.DUALSTATE_WEBHOOK_SECRET, {
  message: "must be set when DUALSTATE_WEBHOOK_URL is set (receivers verify the signature with it)",
  path: ["DUALSTATE_WEBHOOK_SECRET"],
}).refine((env) => !env.DUALSTATE_SMTP_URL || env.DUALSTATE_SMTP_FROM, {
  message: "must be set when DUALSTATE_SMTP_URL is set (the address escalation emails come from)",
  path: ["DUALSTATE_SMTP_FROM"],
}).refine((env) => !env.DUALSTATE_SMTP_URL || env.DUALSTATE_BASE_URL, {
  message: "must be set when DUALSTATE_SMTP_URL is set (escalation emails link to the dashboard)",
  path: ["DUALSTATE_BASE_URL"],
}).refine((env) => !env.DUALSTATE_SLACK_BOT_TOKEN || env.DUALSTATE_SLACK_SIGNING_SECRET, {
  message: "must be set when DUALSTATE_SLACK_BOT_TOKEN is set (Slack's button clicks are verified with it)",
  path: ["DUALSTATE_SLACK_SIGNING_SECRET"],
}).refine((env) => !(env.DUALSTATE_SLACK_WEBHOOK_URL || env.DUALSTATE_SLACK_BOT_TOKEN) || env.DUALSTATE_BASE_URL, {
  message: "must be set when Slack is configured (Slack messages link to the dashboard)",
  path: ["DUALSTATE_BASE_URL"],
});

export type Env = z.infer<typeof envSchema>;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export { EnvError };

/** Empty strings count as unset, as in a .env file with `KEY=`. */
function withoutEmptyStrings(source: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value !== "") result[key] = value;
  }
  return result;
}

/** Parses an environment; throws EnvError naming every invalid variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(withoutEmptyStrings(source));
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new EnvError(`Invalid environment configuration:\n${lines.join("\n")}`);
}

let cached: Env | undefined;

/** The process environment, validated on first use. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
