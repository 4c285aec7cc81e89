/**
 * The regular-expression engine ajv uses for `pattern`, `patternProperties` and `propertyNames`:
 * RE2 (the re2js port, pure JavaScript), whose matching time is linear in the input. A schema's
 * pattern comes from a document, so a catastrophic one like `^(a+)+$` must not be able to freeze
 * anything; RE2 has no backtracking, and refuses what needs it (lookaround, backreferences).
 *
 * Plain .mjs so the validation worker thread (json-schema-worker.mjs) loads it without a
 * TypeScript loader; the guard's own code imports it too.
 */
import { RE2JS } from "re2js";

/** ajv's RegExpEngine: `(pattern, flags) => { test }`; ajv adds the "u" flag, which RE2 always honours. */
export function linearRegExp(pattern, flags) {
  const compiled = RE2JS.compile(pattern, flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0);
  return {
    // JavaScript's RegExp.test searches anywhere in the text, as JSON Schema's pattern does: find(), not matches().
    test: (text) => compiled.matcher(text).find(),
    // ajv shares compiled patterns by this string: without it every pattern would be the first one.
    toString: () => `/${pattern}/${flags}`,
  };
}
linearRegExp.code = "linearRegExp";
