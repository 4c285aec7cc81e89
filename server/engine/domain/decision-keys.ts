/**
 * The ledger keys of attempts and of the decisions a person (or the watchdog) records on them,
 * built and read in this one place. `<prefix>` is a step's key prefix: its name, or
 * `<step>#<visit>` on a later visit of its state.
 *
 *   <prefix>/attempt-<n>                  attempt n of the step (its model call, artifact id, events)
 *   <prefix>/attempt-<n>/decision         the decision on that attempt's fatal verdict
 *   <prefix>/attempt-<n>/edit/decision    …on a reviewer's edit of it that escalated again (repeatable)
 *   <prefix>/exhausted/decision           the decision on a step that spent its retry budget
 *
 * Step names may contain "/", so a key is read from its end: the suffixes above never end one
 * another, and everything before them is the prefix.
 */

const DECISION = "/decision";
const EDIT = "/edit";
const EXHAUSTED = "/exhausted";
const ATTEMPT = "/attempt-";
/** Attempt numbers as the engine writes them: 1, 2, … without leading zeros, at most 9 digits. */
const ATTEMPT_NUMBER = /^[1-9][0-9]{0,8}$/;

/** What every decision key ends with (a fork copies the ledger entries whose key ends so). */
export const DECISION_KEY_SUFFIX = DECISION;

/** The key of attempt `attempt` (1-based) of the step keyed `prefix`. */
export function attemptKeyOf(prefix: string, attempt: number): string {
  return `${prefix}${ATTEMPT}${attempt}`;
}

/** The key of a reviewer's edit of what `key` names (an attempt, or an edit of it). */
export function editKeyOf(key: string): string {
  return `${key}${EDIT}`;
}

/** The key of the event that records that the step keyed `prefix` spent its retry budget. */
export function exhaustedKeyOf(prefix: string): string {
  return `${prefix}${EXHAUSTED}`;
}

/** The key a decision on what `key` names (an attempt, an edit, a spent budget) is recorded under. */
export function decisionKeyOf(key: string): string {
  return `${key}${DECISION}`;
}

export type DecisionKeyClass =
  /** A decision on attempt `attempt` of `prefix`, after `edits` reviewer edits that escalated again. */
  | { readonly kind: "attempt"; readonly prefix: string; readonly attempt: number; readonly edits: number }
  /** A decision on a step that spent its retry budget: there is no attempt an edit could replace. */
  | { readonly kind: "exhausted"; readonly prefix: string }
  /** Not a decision key the engine builds. */
  | { readonly kind: "unknown" };

const UNKNOWN: DecisionKeyClass = { kind: "unknown" };

/** What the decision keyed `key` is about. Linear in the key's length, whatever it holds. */
export function classifyDecisionKey(key: string | null | undefined): DecisionKeyClass {
  if (typeof key !== "string" || !key.endsWith(DECISION)) return UNKNOWN;
  let end = key.length - DECISION.length;
  if (key.startsWith(EXHAUSTED, end - EXHAUSTED.length)) {
    const prefix = key.slice(0, end - EXHAUSTED.length);
    return prefix === "" ? UNKNOWN : { kind: "exhausted", prefix };
  }
  let edits = 0;
  while (end >= EDIT.length && key.startsWith(EDIT, end - EDIT.length)) {
    end -= EDIT.length;
    edits++;
  }
  const at = key.lastIndexOf(ATTEMPT, end - ATTEMPT.length);
  if (at <= 0) return UNKNOWN;
  const digits = key.slice(at + ATTEMPT.length, end);
  if (!ATTEMPT_NUMBER.test(digits)) return UNKNOWN;
  return { kind: "attempt", prefix: key.slice(0, at), attempt: Number(digits), edits };
}
