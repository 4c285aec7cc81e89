import { DECISION_KEY_SUFFIX, classifyDecisionKey, type DecisionKeyClass } from "../engine";
import type { EscalationStatus } from "./lifecycle";

/**
 * A decision on an escalation as the durable protocol carries it: written with the escalation's
 * status in one transaction and appended to the run's ledger under the escalation's decision key,
 * where the resumed turn reads it back (server/engine/agent/decision.ts parses this shape).
 */
export const DECISIONS = ["approve", "edit_and_approve", "reject", "reject_with_feedback"] as const;
export type DecisionKind = (typeof DECISIONS)[number];

export type RecordedDecision =
  | { readonly decision: "approve"; readonly decidedBy: string; readonly contentHash?: string; readonly comment?: string }
  | { readonly decision: "edit_and_approve"; readonly decidedBy: string; readonly contentHash?: string; readonly comment?: string; readonly editedContent: string }
  | { readonly decision: "reject"; readonly decidedBy: string; readonly contentHash?: string; readonly comment?: string }
  | { readonly decision: "reject_with_feedback"; readonly decidedBy: string; readonly contentHash?: string; readonly comment: string }
  /** The watchdog's: the resume deadline passed. */
  | { readonly decision: "expired"; readonly decidedBy: "watchdog" };

/** The escalation status a decision leaves behind. */
export function statusAfter(decision: RecordedDecision["decision"]): Exclude<EscalationStatus, "pending" | "cancelled"> {
  switch (decision) {
    case "approve":
    case "edit_and_approve":
      return "approved";
    case "reject":
    case "reject_with_feedback":
      return "rejected";
    case "expired":
      return "expired";
    default: {
      const unreachable: never = decision;
      throw new Error(`unknown decision ${String(unreachable)}`);
    }
  }
}

/** Decision keys are the engine's (server/engine/domain/decision-keys.ts): built and classified there. */
export { DECISION_KEY_SUFFIX };

/** What the escalation under `decisionKey` waits for: a decision on an attempt, or on a spent retry budget (no edit can be checked again). */
export function decisionKeyKind(decisionKey: string | null | undefined): DecisionKeyClass["kind"] {
  return classifyDecisionKey(decisionKey).kind;
}

/** The ledger call key a decision is recorded under. */
export function decisionCallKey(decisionKey: string): string {
  return `event:${decisionKey}`;
}
