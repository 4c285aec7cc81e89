import { DEFAULT_ESCALATION_POLICY, type EscalationPolicy } from "@/server/review-policy/escalation-policy";
import { resolvePolicy, type EscalationFacts, type RoutingDocument } from "@/server/review-policy/routing";

/**
 * The policy an escalation of `kind` gets: a guard escalation's from the routing document (none:
 * the built-in policy); a budget escalation decides on money, not code, and keeps the built-in
 * policy whatever the rules say. `byDocument` says whether the document chose it.
 */
export function routedPolicy(document: RoutingDocument | null, kind: string, facts: EscalationFacts): { policy: EscalationPolicy; byDocument: boolean } {
  if (document === null || kind !== "guard") return { policy: DEFAULT_ESCALATION_POLICY, byDocument: false };
  return { policy: resolvePolicy(document, facts), byDocument: true };
}
