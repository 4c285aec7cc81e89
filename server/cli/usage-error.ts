/** The command line itself is wrong: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
