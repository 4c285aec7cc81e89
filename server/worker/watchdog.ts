import type { DurableStore } from "../durable/durable-store";
import type { HandedOff } from "../durable/store/hand-off-escalation";
import { escalationPolicyOf } from "../review-policy/escalation-policy";
import { DEADLINE_POLICY_ACTOR, deadlineStepOf } from "../review-policy/hand-off";
import { backoffMs } from "./backoff";

export interface WatchdogReport {
  readonly reclaimed: readonly { runId: string; leaseOwner: string | null; epoch: number }[];
  /** Runs whose escalation expired at its deadline (the run fails). */
  readonly expired: readonly string[];
  /** Runs whose escalation the deadline policy rejected (the run goes on as after a rejection). */
  readonly rejected: readonly string[];
  /** Escalations offered to another group: unclaimed past the backup time, or at the deadline. */
  readonly handedOff: readonly HandedOff[];
  /** Waiting tool calls whose deadline passed: each got a TIMEOUT report. */
  readonly timedOut: readonly { runId: string; callId: string }[];
}

/**
 * One sweep of the watchdog (003 section 3.6): reclaims runs whose lease expired (their worker
 * died), reports a timeout for tool calls past their deadline, offers unclaimed escalations to
 * their policy's backup group, applies the deadline policy to escalations of suspended runs past
 * their resume deadline (fail: the run resumes and fails with "escalation expired"; reject: it
 * resumes as after a rejection; handoff: another group gets it, with a new deadline, once; never
 * an approval), and closes messages left for runs that already ended.
 * Safe to run in every worker at once: each change is a compare-and-swap. Whether a lease or a
 * deadline has passed is the database's clock's answer, never this worker's.
 */
export async function sweep(store: DurableStore): Promise<WatchdogReport> {
  const reclaimed = await store.reclaimExpiredLeases((retryCount) => backoffMs(retryCount, 100, 5_000));
  const handedOff: HandedOff[] = await store.handOffUnclaimedToBackup();
  const expired: string[] = [];
  const rejected: string[] = [];
  for (const overdue of await store.overdueEscalations()) {
    const step = deadlineStepOf(escalationPolicyOf(overdue.policy), overdue.handedOffAtDeadline);
    if (step.kind === "handoff") {
      const done = await store.handOffAtDeadline({ escalationId: overdue.escalationId, group: step.group, hours: step.hours });
      if (done) handedOff.push(done);
      continue;
    }
    const outcome =
      step.kind === "reject"
        ? await store.resolveEscalation({
            escalationId: overdue.escalationId,
            decision: { decision: "reject", decidedBy: DEADLINE_POLICY_ACTOR, comment: step.comment },
            note: `${overdue.at}: resume deadline passed; escalation ${overdue.escalationId} rejected by its deadline policy`,
            auditActor: { id: null, email: DEADLINE_POLICY_ACTOR },
          })
        : await store.resolveEscalation({
            escalationId: overdue.escalationId,
            decision: { decision: "expired", decidedBy: "watchdog" },
            note: `${overdue.at}: resume deadline passed; escalation ${overdue.escalationId} expired`,
          });
    if (outcome.ok) (step.kind === "reject" ? rejected : expired).push(overdue.runId);
  }
  const timedOut = await store.timeOutOverdueWaits();
  await store.closeMessagesOfEndedRuns();
  return { reclaimed, expired, rejected, handedOff, timedOut };
}
