/**
 * The interactive buttons of a Slack escalation message: their action ids, and the value each
 * carries (the escalation and the artifact hash the message showed, so a click decides on what was
 * seen). The value comes back in a request from Slack: it is parsed, never trusted as is.
 */
export const SLACK_ACTION_IDS = { approve: "dualstate_approve", reject: "dualstate_reject", review: "dualstate_review" } as const;
export type SlackDecisionAction = "approve" | "reject";

export interface SlackActionTarget {
  readonly escalationId: string;
  readonly contentHash: string;
}

export function encodeSlackActionValue(target: SlackActionTarget): string {
  return `${target.escalationId}:${target.contentHash}`;
}

/** The target a button value names, or null when it is not one of ours (any string may arrive). */
export function parseSlackActionValue(value: string): SlackActionTarget | null {
  if (value.length > 200) return null;
  const match = /^([A-Za-z0-9_-]{1,100}):([a-f0-9]{64})$/.exec(value);
  return match ? { escalationId: match[1]!, contentHash: match[2]! } : null;
}

/** Which decision an action id asks for; null for the review link button and anything unknown. */
export function slackDecisionOf(actionId: string): SlackDecisionAction | null {
  if (actionId === SLACK_ACTION_IDS.approve) return "approve";
  if (actionId === SLACK_ACTION_IDS.reject) return "reject";
  return null;
}
