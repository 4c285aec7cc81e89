import type { EscalationPolicy } from "../escalation-policy";
import type { EscalationFacts, RoutingDocument, RoutingMatch } from "./routing-document";

/** The policy of the first rule whose every condition holds for the escalation, else the document's default. */
export function resolvePolicy(document: RoutingDocument, facts: EscalationFacts): EscalationPolicy {
  return document.rules.find((rule) => matches(rule.match, facts))?.policy ?? document.defaultPolicy;
}

export function matches(match: RoutingMatch, facts: EscalationFacts): boolean {
  if (match.workflows && (facts.workflow === null || !match.workflows.includes(facts.workflow))) return false;
  if (match.steps && !match.steps.includes(facts.step)) return false;
  if (match.guards && !match.guards.some((kind) => facts.guardKinds.includes(kind))) return false;
  if (match.feedback && !match.feedback.test(facts.feedback)) return false;
  return true;
}
