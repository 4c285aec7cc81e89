import { AWAITING_HUMAN_FEEDBACK } from "@/server/guards/human/human-guard";

/** A failed guard verdict as stored on its artifact (feedback already cut to a bounded length). */
export interface FailedVerdict {
  readonly guardId: string;
  readonly stepName: string;
  readonly feedback: string;
  readonly fatal: boolean;
  readonly runId: string;
}

export interface FailureReason {
  readonly guardId: string;
  /** The feedback's first line, with what changes from one failure to the next (line numbers, ids, timings) masked. */
  readonly reason: string;
  readonly count: number;
  /** How many of them were fatal (escalated at once instead of retried). */
  readonly fatalCount: number;
  /** The steps it happened in, at most three. */
  readonly steps: readonly string[];
  /** A run it happened in, the newest of the sample: a link to look at. */
  readonly exampleRunId: string;
}

export const REASON_MAX_CHARS = 160;
const NO_FEEDBACK = "(no feedback)";
// A composite guard names its failing member ("Guard 2 of 3: …"); the member's own words follow.
const COMPOSITE_PREFIX = /^(Guard \d+ of \d+: )+/;

/**
 * Groups feedback that says the same thing: the first non-empty line, whitespace collapsed,
 * positions ("line 12", "column 4"), durations ("120 ms"), hex ids and UUIDs masked, cut to
 * REASON_MAX_CHARS. The words and the other numbers stay: "expected 5" and "expected 7" differ.
 */
export function normaliseReason(feedback: string): string {
  const firstLine = feedback.split(/\r?\n/).find((line) => line.trim() !== "");
  if (firstLine === undefined) return NO_FEEDBACK;
  const reason = firstLine
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<id>")
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b/gi, "<id>")
    .replace(/\b(line|lines|column|col|position|offset)( ?)\d+/gi, "$1$2N")
    .replace(/:\d+:\d+\b/g, ":N:N")
    .replace(/\b\d+(\.\d+)? ?(ms|s|seconds|milliseconds)\b/g, "N $2");
  return reason.length > REASON_MAX_CHARS ? `${reason.slice(0, REASON_MAX_CHARS - 1)}…` : reason;
}

/** A human guard's verdict is a wait for a person, not a failure. */
export function isAwaitingHuman(feedback: string): boolean {
  return feedback.trimStart().replace(COMPOSITE_PREFIX, "").startsWith(AWAITING_HUMAN_FEEDBACK);
}

/**
 * The most frequent reasons, by guard and normalised first line: most frequent first (ties by
 * guard, then reason, so the order is stable). `verdicts` come newest first.
 */
export function topFailureReasons(verdicts: readonly FailedVerdict[], limit: number): FailureReason[] {
  const groups = new Map<string, { guardId: string; reason: string; count: number; fatalCount: number; steps: string[]; exampleRunId: string }>();
  for (const verdict of verdicts) {
    if (isAwaitingHuman(verdict.feedback)) continue;
    const reason = normaliseReason(verdict.feedback);
    const key = JSON.stringify([verdict.guardId, reason]);
    let group = groups.get(key);
    if (!group) {
      group = { guardId: verdict.guardId, reason, count: 0, fatalCount: 0, steps: [], exampleRunId: verdict.runId };
      groups.set(key, group);
    }
    group.count++;
    if (verdict.fatal) group.fatalCount++;
    if (group.steps.length < 3 && !group.steps.includes(verdict.stepName)) group.steps.push(verdict.stepName);
  }
  return [...groups.values()]
    .sort((a, b) => b.count - a.count || a.guardId.localeCompare(b.guardId) || a.reason.localeCompare(b.reason))
    .slice(0, limit);
}
