import { RE2JS } from "re2js";
import { ROUTING_LIMITS, type FeedbackPattern } from "./routing-document";

/**
 * A routing document's feedback pattern, compiled with RE2 (re2js, pure JavaScript): matching is
 * linear in the text, so a pattern like `(a+)+$` cannot freeze the routing pass, and RE2 refuses
 * what would need backtracking (lookaround, backreferences). Inline flags such as `(?i)` work.
 * Only the first ROUTING_LIMITS.feedbackPrefix characters of feedback are searched.
 * @returns the pattern, or why it cannot be one (a sentence for the document's problem list).
 */
export function compileFeedbackPattern(source: string): FeedbackPattern | string {
  if (source.length === 0) return "must not be empty";
  if (source.length > ROUTING_LIMITS.maxPatternLength) return `is ${source.length} characters; the limit is ${ROUTING_LIMITS.maxPatternLength}`;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "unreadable";
    return `is not a regular expression the linear-time engine (RE2) accepts: no lookahead, lookbehind or backreferences (${reason})`;
  }
  const programSize = compiled.programSize();
  if (programSize > ROUTING_LIMITS.maxPatternProgram) {
    return `compiles to ${programSize} RE2 instructions; the limit is ${ROUTING_LIMITS.maxPatternProgram} (counted repetitions such as {1,1000} cost the most: use + or * where the count does not matter)`;
  }
  return { source, programSize, test: (feedback) => compiled.matcher(feedback.slice(0, ROUTING_LIMITS.feedbackPrefix)).find() };
}
