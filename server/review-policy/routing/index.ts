export { parseRoutingDocument, type RoutingParseOptions, type RoutingParseResult } from "./parse-routing-document";
export { resolvePolicy, matches } from "./resolve-policy";
export { guardKindsOfStep } from "./guard-kinds-of-step";
export { groupsNamedBy } from "./groups-named-by";
export { DEFAULT_RULE_NAME, ROUTING_LIMITS, type EscalationFacts, type RoutingDocument, type RoutingMatch, type RoutingRule } from "./routing-document";
