/**
 * What happens to one escalation: who it is offered to, how many must approve, when it expires and
 * what its deadline does, who takes it when nobody does, and how people are told. The routing pass
 * resolves it once from the routing document (server/review-policy/routing) and stores it on the
 * escalation (Escalation.policy); an escalation with none stored follows DEFAULT_ESCALATION_POLICY,
 * which is Dualstate's behaviour without a routing document.
 */

/** What the deadline does to a still-pending escalation. Never an approval: fatal code is not approved by silence. */
export const DEADLINE_ACTIONS = ["fail", "reject", "handoff"] as const;
export type DeadlineAction = (typeof DEADLINE_ACTIONS)[number];

/** How reviewers are told about an escalation. */
export const NOTIFICATION_CHANNELS = ["email", "slack"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export interface QuorumPolicy {
  /** Approvals from distinct reviewers needed to approve (1 = today's single decision). */
  readonly approvals: number;
  /** The person who started the run may not approve it. */
  readonly excludeRunStarter: boolean;
  /** Rejections that decide the escalation as rejected (1 = one rejection decides). */
  readonly rejections: number;
}

export interface DeadlinePolicy {
  /** Hours from the escalation to its deadline; null keeps the workflow's own (escalation_timeout). */
  readonly hours: number | null;
  readonly action: DeadlineAction;
  /** For "handoff": the group that takes the escalation at the deadline, and the hours it gets. */
  readonly handoffGroup: string | null;
  readonly handoffHours: number | null;
}

export interface BackupPolicy {
  /** The group offered the escalation when nobody claimed it after `afterHours`. */
  readonly group: string;
  readonly afterHours: number;
}

export interface EscalationPolicy {
  /** The reviewer group offered the escalation; null = every reviewer (today's behaviour). */
  readonly group: string | null;
  readonly quorum: QuorumPolicy;
  readonly deadline: DeadlinePolicy;
  readonly backup: BackupPolicy | null;
  readonly channels: readonly NotificationChannel[];
  /** The routing rule that chose this policy (its name or index), for the review page and the dry run. */
  readonly rule: string | null;
}

export const DEFAULT_ESCALATION_POLICY: EscalationPolicy = Object.freeze({
  group: null,
  quorum: Object.freeze({ approvals: 1, excludeRunStarter: false, rejections: 1 }),
  deadline: Object.freeze({ hours: null, action: "fail" as const, handoffGroup: null, handoffHours: null }),
  backup: null,
  channels: Object.freeze(["email", "slack"] as const),
  rule: null,
});

/** Bounds a routing document may set; the routing validator enforces them, the reader clamps to them. */
export const POLICY_LIMITS = Object.freeze({ maxApprovals: 10, maxHours: 24 * 365 });

/**
 * The policy stored on an escalation (a JSON column: read defensively), with every missing or
 * malformed part taken from the default. Never throws: a stored policy was validated when routed.
 */
export function escalationPolicyOf(stored: unknown): EscalationPolicy {
  if (!isRecord(stored)) return DEFAULT_ESCALATION_POLICY;
  const quorum = isRecord(stored.quorum) ? stored.quorum : {};
  const deadline = isRecord(stored.deadline) ? stored.deadline : {};
  const backup = isRecord(stored.backup) ? stored.backup : null;
  const channels = Array.isArray(stored.channels) ? stored.channels.filter((c): c is NotificationChannel => (NOTIFICATION_CHANNELS as readonly unknown[]).includes(c)) : DEFAULT_ESCALATION_POLICY.channels;
  const action = (DEADLINE_ACTIONS as readonly unknown[]).includes(deadline.action) ? (deadline.action as DeadlineAction) : "fail";
  return {
    group: typeof stored.group === "string" && stored.group !== "" ? stored.group : null,
    quorum: {
      approvals: count(quorum.approvals, 1, POLICY_LIMITS.maxApprovals),
      excludeRunStarter: quorum.excludeRunStarter === true,
      rejections: count(quorum.rejections, 1, POLICY_LIMITS.maxApprovals),
    },
    deadline: {
      hours: hoursOrNull(deadline.hours),
      action,
      handoffGroup: action === "handoff" && typeof deadline.handoffGroup === "string" && deadline.handoffGroup !== "" ? deadline.handoffGroup : null,
      handoffHours: action === "handoff" ? hoursOrNull(deadline.handoffHours) : null,
    },
    backup: backup && typeof backup.group === "string" && backup.group !== "" && hoursOrNull(backup.afterHours) !== null ? { group: backup.group, afterHours: hoursOrNull(backup.afterHours) as number } : null,
    channels,
    rule: typeof stored.rule === "string" ? stored.rule : null,
  };
}

function count(value: unknown, fallback: number, max: number): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 ? Math.min(value, max) : fallback;
}

function hoursOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.min(value, POLICY_LIMITS.maxHours) : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
