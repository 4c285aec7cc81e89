import type { EscalationPolicy } from "../escalation-policy";
import type { RoutingDocument } from "./routing-document";

/** Every reviewer group a routing document sends escalations to: rules' and default's groups, hand-off and backup groups. */
export function groupsNamedBy(document: RoutingDocument): Set<string> {
  const names = new Set<string>();
  const add = (policy: EscalationPolicy) => {
    for (const name of [policy.group, policy.deadline.handoffGroup, policy.backup?.group]) if (name) names.add(name);
  };
  add(document.defaultPolicy);
  for (const rule of document.rules) add(rule.policy);
  return names;
}
