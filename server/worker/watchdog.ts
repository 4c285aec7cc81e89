import type { DurableStore } from "../durable/durable-store";
import { backoffMs } from "./backoff";

export interface WatchdogReport {
  readonly reclaimed: readonly { runId: string; leaseOwner: string | null; epoch: number }[];
  readonly expired: readonly string[];
  /** Waiting tool calls whose deadline passed: each got a TIMEOUT report. */
  readonly timedOut: readonly { runId: string; callId: string }[];
}

/**
 * One sweep of the watchdog (003 section 3.6): reclaims runs whose lease expired (their worker
 * died), reports a timeout for tool calls past their deadline, expires escalations of suspended runs past their resume deadline (the run resumes and
 * fails with "escalation expired"), and closes messages left for runs that already ended.
 * Safe to run in every worker at once: each change is a compare-and-swap. Whether a lease or a
 * deadline has passed is the database's clock's answer, never this worker's.
 */
export async function sweep(store: DurableStore): Promise<WatchdogReport> {
  const reclaimed = await store.reclaimExpiredLeases((retryCount) => backoffMs(retryCount, 100, 5_000));
  const expired: string[] = [];
  for (const overdue of await store.overdueEscalations()) {
    const outcome = await store.resolveEscalation({
      escalationId: overdue.escalationId,
      decision: { decision: "expired", decidedBy: "watchdog" },
      note: `${overdue.at}: resume deadline passed; escalation ${overdue.escalationId} expired`,
    });
    if (outcome.ok) expired.push(overdue.runId);
  }
  const timedOut = await store.timeOutOverdueWaits();
  await store.closeMessagesOfEndedRuns();
  return { reclaimed, expired, timedOut };
}
