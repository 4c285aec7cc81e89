import type { Db } from "@/server/persistence/db";
import { escalationPolicyOf, type EscalationPolicy } from "@/server/review-policy/escalation-policy";
import type { DocumentProblem } from "@/server/workflows/document";
import { escalationFacts, FACTS_SELECT } from "./escalation-facts";
import { routedPolicy } from "./routed-policy";
import { parseAgainstGroups } from "./routing-in-force";

export const DRY_RUN_DEFAULT = 50;
export const DRY_RUN_MAX = 200;

export interface DryRunRow {
  readonly escalationId: string;
  readonly workflow: string | null;
  readonly step: string;
  readonly guardId: string;
  readonly status: string;
  readonly createdAt: Date;
  /** Where it went: its stored policy, or null when it was never routed (it followed the default). */
  readonly went: EscalationPolicy | null;
  readonly wentVersion: number | null;
  /** Where the draft would send it. */
  readonly draft: EscalationPolicy;
  /** The draft changes its rule, group, quorum, deadline, backup or channels. */
  readonly changed: boolean;
}

export type DryRun = { ok: true; rows: DryRunRow[] } | { ok: false; problems: DocumentProblem[] };

/**
 * Where each of the last `count` escalations (newest first, any status) would go under the draft
 * document, beside where it went. Reads only; nothing is routed.
 */
export async function dryRunRouting(db: Db, source: string, count = DRY_RUN_DEFAULT): Promise<DryRun> {
  const parsed = await parseAgainstGroups(db, source);
  if (!parsed.ok) return { ok: false, problems: parsed.problems };
  const escalations = await db.escalation.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(1, Math.floor(count)), DRY_RUN_MAX),
    select: { id: true, kind: true, guardId: true, status: true, createdAt: true, policy: true, routedAt: true, routingVersion: true, ...FACTS_SELECT },
  });
  const facts = await escalationFacts(db, escalations);
  return {
    ok: true,
    rows: escalations.map((escalation, index) => {
      const went = escalation.routedAt ? escalationPolicyOf(escalation.policy) : null;
      const draft = routedPolicy(parsed.document, escalation.kind, facts[index]!).policy;
      return {
        escalationId: escalation.id,
        workflow: facts[index]!.workflow,
        step: escalation.stepName,
        guardId: escalation.guardId,
        status: escalation.status,
        createdAt: escalation.createdAt,
        went,
        wentVersion: escalation.routingVersion,
        draft,
        changed: !samePlace(went, draft),
      };
    }),
  };
}

/** Same routing, whatever rule name chose it (an unrouted escalation went where the default policy sends). */
function samePlace(went: EscalationPolicy | null, draft: EscalationPolicy): boolean {
  const place = (policy: EscalationPolicy | null) => {
    // Read both through the stored form, so key order and defaults cannot make equal policies differ.
    const { rule: _rule, ...rest } = escalationPolicyOf(policy);
    return JSON.stringify(rest);
  };
  return place(went) === place(draft);
}
