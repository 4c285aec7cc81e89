/** An invalid environment (server/env.ts), in a file of its own so the CLI can catch it without loading the schema. */
export class EnvError extends Error {
  override readonly name = "EnvError";
  readonly code = "INVALID_ENV";
}
