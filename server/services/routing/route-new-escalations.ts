import type { Db } from "@/server/persistence/db";
import { escalationFacts, FACTS_SELECT } from "./escalation-facts";
import { routedPolicy } from "./routed-policy";
import { routingInForce } from "./routing-in-force";

const BATCH = 50;
const HOUR_MS = 3_600_000;

/**
 * The routing pass: gives each pending escalation not yet routed its policy from the routing
 * document in force (or the default policy when there is none), once. Writes the policy, the
 * routing version, the group it is offered to and, when the policy sets deadline hours, moves the
 * escalation's deadline and its run's resume deadline (only while the run is still suspended on
 * it), in one transaction per escalation. A compare-and-swap on routedAt makes concurrent passes
 * route each escalation once. When nothing waits, it costs one indexed query. `escalationId` routes
 * only that one (a decision that arrives before the pass: decide-escalation.ts).
 * @returns how many escalations this pass routed.
 */
export async function routeNewEscalations(db: Db, options: { now?: Date; batch?: number; escalationId?: string } = {}): Promise<number> {
  const waiting = await db.escalation.findMany({
    where: { status: "pending", routedAt: null, ...(options.escalationId ? { id: options.escalationId } : {}) },
    orderBy: { createdAt: "asc" },
    take: options.batch ?? BATCH,
    select: { id: true, kind: true, runId: true, createdAt: true, ...FACTS_SELECT },
  });
  if (waiting.length === 0) return 0;
  const { version, document } = await routingInForce(db);
  const facts = await escalationFacts(db, waiting);
  const now = options.now ?? new Date();
  let routed = 0;
  for (const [index, escalation] of waiting.entries()) {
    const { policy, byDocument } = routedPolicy(document, escalation.kind, facts[index]!);
    const expiresAt = policy.deadline.hours === null ? undefined : new Date(escalation.createdAt.getTime() + policy.deadline.hours * HOUR_MS);
    const done = await db.$transaction(async (tx) => {
      const claimed = await tx.escalation.updateMany({
        where: { id: escalation.id, status: "pending", routedAt: null },
        data: { policy: policy as object, routedAt: now, routingVersion: byDocument ? version : null, reviewGroup: policy.group, ...(expiresAt ? { expiresAt } : {}) },
      });
      if (claimed.count === 0) return false;
      // The run waits on this escalation only while it is suspended with no tool call outstanding.
      if (expiresAt) await tx.run.updateMany({ where: { id: escalation.runId, status: "suspended", waitingToolCount: 0 }, data: { resumeDeadline: expiresAt } });
      return true;
    });
    if (done) routed++;
  }
  return routed;
}
