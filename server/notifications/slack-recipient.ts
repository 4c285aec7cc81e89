/**
 * Who a Slack delivery (a NotificationDelivery row with channel "slack") is for: a reviewer's
 * direct message (the reviewer's email, as email deliveries name them), a reviewer group's
 * channel ("group:<name>"), or the deployment's default channel for an escalation offered to
 * every reviewer.
 */
export const ALL_REVIEWERS_RECIPIENT = "all-reviewers";

/**
 * The row kept when an escalation's Slack notification reaches nobody (no destination, or its
 * policy leaves Slack out): never sent, it only stops the next pass from looking again.
 */
export const NO_SLACK_RECIPIENT = "(nobody)";

const GROUP_PREFIX = "group:";

export function groupRecipient(group: string): string {
  return `${GROUP_PREFIX}${group}`;
}

export type SlackRecipient = { readonly kind: "reviewer"; readonly email: string } | { readonly kind: "group"; readonly group: string } | { readonly kind: "all-reviewers" } | { readonly kind: "nobody" };

export function parseSlackRecipient(recipient: string): SlackRecipient {
  if (recipient === ALL_REVIEWERS_RECIPIENT) return { kind: "all-reviewers" };
  if (recipient === NO_SLACK_RECIPIENT) return { kind: "nobody" };
  if (recipient.startsWith(GROUP_PREFIX)) return { kind: "group", group: recipient.slice(GROUP_PREFIX.length) };
  return { kind: "reviewer", email: recipient };
}
