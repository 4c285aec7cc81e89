import type { EscalationPolicy } from "./escalation-policy";

/**
 * Hand-offs and what a deadline does, as the watchdog applies them (server/worker/watchdog.ts) and
 * the review page and queue describe them. Pure: the durable store does the writes.
 */

/** Why an escalation moved to another group: nobody claimed it in time, or its deadline passed. */
export const HANDOFF_REASONS = ["backup", "deadline"] as const;
export type HandOffReason = (typeof HANDOFF_REASONS)[number];

/**
 * The audit action of each hand-off, written in the hand-off's transaction. The deadline's is also
 * the record that a deadline hand-off happened (a hand-off at the deadline happens once; the next
 * deadline fails the run), since the audit log is append-only.
 */
export const HANDOFF_AUDIT_ACTIONS = Object.freeze({ backup: "escalation.offered_to_backup", deadline: "escalation.handed_off_at_deadline" } as const);
export type HandOffAuditAction = (typeof HANDOFF_AUDIT_ACTIONS)[HandOffReason];

export function handOffReasonOf(action: string): HandOffReason | null {
  return HANDOFF_REASONS.find((reason) => HANDOFF_AUDIT_ACTIONS[reason] === action) ?? null;
}

/** Who acted, in the escalation's decidedBy and the audit log, when a policy (not a person) did. */
export const DEADLINE_POLICY_ACTOR = "deadline policy";
export const BACKUP_POLICY_ACTOR = "backup policy";

/** What the watchdog does to a pending escalation whose deadline passed. Never an approval. */
export type DeadlineStep =
  | { readonly kind: "fail" }
  | { readonly kind: "reject"; readonly comment: string }
  | { readonly kind: "handoff"; readonly group: string; readonly hours: number };

/** The rejection's comment; the run reads "Rejected by deadline policy: nobody decided before the deadline". */
export const DEADLINE_REJECT_COMMENT = "nobody decided before the deadline";

/**
 * The step for an escalation under `policy` at its deadline. A hand-off happens once: at the
 * deadline after it (or when the policy names no group or hours to hand to) the run fails.
 */
export function deadlineStepOf(policy: EscalationPolicy, handedOffAtDeadline: boolean): DeadlineStep {
  const { deadline } = policy;
  switch (deadline.action) {
    case "fail":
      return { kind: "fail" };
    case "reject":
      return { kind: "reject", comment: DEADLINE_REJECT_COMMENT };
    case "handoff":
      if (handedOffAtDeadline || deadline.handoffGroup === null || deadline.handoffHours === null) return { kind: "fail" };
      return { kind: "handoff", group: deadline.handoffGroup, hours: deadline.handoffHours };
    default: {
      const unreachable: never = deadline.action;
      throw new Error(`unknown deadline action ${String(unreachable)}`);
    }
  }
}

/** "At the deadline: …", for the review page and queue. */
export function describeDeadlineStep(policy: EscalationPolicy, handedOffAtDeadline: boolean): string {
  const step = deadlineStepOf(policy, handedOffAtDeadline);
  switch (step.kind) {
    case "fail":
      return handedOffAtDeadline && policy.deadline.handoffGroup
        ? `At the deadline: the run fails (it was already handed to ${policy.deadline.handoffGroup} at a deadline).`
        : "At the deadline: the run fails.";
    case "reject":
      return "At the deadline: rejected (the run goes on as after a rejection).";
    case "handoff":
      return `At the deadline: handed to ${step.group} for ${formatHours(step.hours)}; at the deadline after that the run fails.`;
  }
}

export function formatHours(hours: number): string {
  return hours < 1 ? `${Math.round(hours * 60)} min` : `${Number(hours.toFixed(2))} h`;
}

/** One hand-off as the audit log recorded it. */
export interface HandOffRecord {
  readonly reason: HandOffReason;
  readonly from: string | null;
  readonly to: string;
  readonly at: Date;
}

/** "offered to oncall (handed off from security at 2026-11-26 14:02 UTC: nobody claimed it)"; null when never handed off. */
export function describeHandOff(reviewGroup: string | null, last: HandOffRecord | null): string | null {
  if (!last) return null;
  const why = last.reason === "backup" ? "nobody claimed it in time" : "its deadline passed";
  const when = last.at.toISOString().replace("T", " ").slice(0, 16);
  return `Offered to ${reviewGroup ?? last.to} (handed off from ${last.from ?? "every reviewer"} at ${when} UTC: ${why}).`;
}
