import type { SqlRunStore } from "../persistence/run-store/sql-run-store";
import { backoffMs } from "./backoff";

export interface WatchdogReport {
  readonly reclaimed: readonly { runId: string; leaseOwner: string | null; epoch: number }[];
  readonly expired: readonly string[];
}

/**
 * One sweep of the watchdog (003 section 3.6): reclaims runs whose lease expired (their worker
 * died), expires escalations of suspended runs past their resume deadline (the run resumes and
 * fails with "escalation expired"), and closes messages left for runs that already ended.
 * Safe to run in every worker at once: each change is a compare-and-swap.
 */
export async function sweep(store: SqlRunStore, now = new Date()): Promise<WatchdogReport> {
  const reclaimed = await store.reclaimExpiredLeases(now, (retryCount) => backoffMs(retryCount, 100, 5_000));
  const expired: string[] = [];
  for (const overdue of await store.overdueEscalations(now)) {
    const outcome = await store.resolveEscalation(
      {
        escalationId: overdue.escalationId,
        status: "expired",
        decision: { decision: "expired", decidedBy: "watchdog" },
        decidedBy: "watchdog",
        kind: "timeout",
        note: `${now.toISOString()}: resume deadline passed; escalation ${overdue.escalationId} expired`,
      },
      now,
    );
    if (outcome.ok) expired.push(overdue.runId);
  }
  await store.closeMessagesOfEndedRuns(now);
  return { reclaimed, expired };
}
