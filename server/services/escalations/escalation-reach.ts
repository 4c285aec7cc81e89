import type { Db } from "@/server/persistence/db";
import { escalationPolicyOf } from "@/server/review-policy/escalation-policy";
import { deadlineStepOf, describeDeadlineStep, describeHandOff, type DeadlineStep, HANDOFF_AUDIT_ACTIONS, handOffReasonOf, type HandOffRecord } from "@/server/review-policy/hand-off";

/** Who an escalation is offered to and what its deadline does, in words, for the review page and the queue. */
export interface EscalationReach {
  /** The group offered the escalation now; null = every reviewer. */
  readonly group: string | null;
  /** "Offered to oncall (handed off from security at … UTC: nobody claimed it in time)."; null when never handed off. */
  readonly handOff: string | null;
  /** "At the deadline: …"; null once the escalation is closed. */
  readonly deadline: string | null;
  /** What the deadline does (null once closed): the queue names only what differs from failing the run. */
  readonly deadlineStep: DeadlineStep["kind"] | null;
}

interface ReachFacts {
  readonly id: string;
  readonly status: string;
  readonly reviewGroup: string | null;
  readonly handedOffAt: Date | null;
  readonly policy: unknown;
}

/**
 * The reach of each escalation. Hand-offs come from the audit log, written in each hand-off's
 * transaction (from which group, when, why): one query for all the escalations handed off.
 */
export async function reachOf(db: Db, escalations: readonly ReachFacts[]): Promise<Map<string, EscalationReach>> {
  const handedOff = escalations.filter((escalation) => escalation.handedOffAt !== null);
  const events =
    handedOff.length === 0
      ? []
      : await db.auditEvent.findMany({
          where: { action: { in: Object.values(HANDOFF_AUDIT_ACTIONS) }, target: { in: handedOff.map((escalation) => `escalation:${escalation.id}`) } },
          orderBy: { at: "asc" },
          select: { action: true, target: true, at: true, detail: true },
        });
  const last = new Map<string, HandOffRecord>();
  const atDeadline = new Set<string>();
  for (const event of events) {
    const reason = handOffReasonOf(event.action);
    const detail = (event.detail ?? {}) as { from?: unknown; to?: unknown };
    if (!reason || typeof detail.to !== "string") continue;
    const id = event.target.slice("escalation:".length);
    last.set(id, { reason, from: typeof detail.from === "string" ? detail.from : null, to: detail.to, at: event.at });
    if (reason === "deadline") atDeadline.add(id);
  }
  return new Map(
    escalations.map((escalation) => [
      escalation.id,
      {
        group: escalation.reviewGroup,
        handOff: describeHandOff(escalation.reviewGroup, last.get(escalation.id) ?? null),
        ...deadlineOf(escalation, atDeadline.has(escalation.id)),
      },
    ]),
  );
}

function deadlineOf(escalation: ReachFacts, handedOffAtDeadline: boolean): Pick<EscalationReach, "deadline" | "deadlineStep"> {
  if (escalation.status !== "pending") return { deadline: null, deadlineStep: null };
  const policy = escalationPolicyOf(escalation.policy);
  return { deadline: describeDeadlineStep(policy, handedOffAtDeadline), deadlineStep: deadlineStepOf(policy, handedOffAtDeadline).kind };
}

/** The columns reachOf reads, for a Prisma select. */
export const REACH_SELECT = { reviewGroup: true, handedOffAt: true, policy: true } as const;
