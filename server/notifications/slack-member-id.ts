/**
 * A Slack member id as Slack shows it (profile → "Copy member ID"): U or W, then letters and
 * digits. Checked on the account page, and the only shape a Slack click's user is looked up by.
 */
export const SLACK_MEMBER_ID_PATTERN = /^[UW][A-Z0-9]{2,20}$/;

/** The id as typed, trimmed and upper-cased; why it is not one, or the id. */
export function parseSlackMemberId(text: string): { ok: true; id: string } | { ok: false; problem: string } {
  const id = text.trim().toUpperCase();
  if (SLACK_MEMBER_ID_PATTERN.test(id)) return { ok: true, id };
  return { ok: false, problem: "must be a Slack member id such as U0123ABCD (in Slack: your profile → ⋮ → Copy member ID)" };
}
