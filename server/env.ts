/**
 * The only reader of process.env. Validated once, with messages that name the variable;
 * everything else receives configuration as arguments.
 */
import { z } from "zod";

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

export const envSchema = z.object({
  DATABASE_URL: databaseUrl.default(DEFAULT_DATABASE_URL),
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL such as http://localhost:11434/v1" }).optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().min(1, "must not be empty").optional(),
  PORT: port.default(3000),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override readonly name = "EnvError";
  readonly code = "INVALID_ENV";
}

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
