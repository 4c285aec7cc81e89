import type { Generation } from "../ports/generator";

/**
 * Whether a generation is an answer at all, decided once for every action-pair attempt before
 * any guard runs: an empty reply or one cut short is a failed attempt with feedback the model can
 * act on, never an artifact a lenient guard (a syntax check of nothing) would let through.
 */

/** Characters that show nothing: whitespace, control characters and invisible format characters (zero-width space, BOM...). */
const NOTHING_VISIBLE = /^[\p{White_Space}\p{Cc}\p{Cf}]*$/u;

/** True for content that holds nothing a reader or a guard could check. */
export function isBlank(content: string): boolean {
  return NOTHING_VISIBLE.test(content);
}

export const EMPTY_REPLY_FEEDBACK = "The reply was empty: answer with the complete artifact.";

/**
 * The feedback of an attempt whose generation is not an answer, or undefined when it is one.
 * `allowEmpty` is the step's own say that empty content is a valid artifact (workflow option
 * `allow_empty`); a reply cut short is never one.
 */
export function unansweredFeedback(generation: Generation, allowEmpty: boolean): string | undefined {
  if (generation.incomplete) return generation.incomplete;
  if (!allowEmpty && isBlank(generation.content)) return EMPTY_REPLY_FEEDBACK;
  return undefined;
}
