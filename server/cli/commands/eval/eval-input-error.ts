/** A bad command line, file or name for `dualstate eval`: said on stderr, exit 2. */
export class EvalInputError extends Error {
  override readonly name = "EvalInputError";
}
