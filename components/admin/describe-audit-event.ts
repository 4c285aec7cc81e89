import type { DecisionKind } from "@/server/services/escalations/decision-kinds";

/**
 * One audit event as a sentence people read ("ada@example.com approved escalation 1a2b3c4d of run
 * 9f8e7d6c (workflow tdd-lru-cache)"), from its action and detail. Pure. The detail is whatever
 * was stored (old rows, other versions), so every field is read defensively and long text is cut.
 */
export interface AuditEventView {
  readonly actorEmail: string;
  readonly action: string;
  readonly target: string;
  readonly detail: Readonly<Record<string, unknown>>;
  /** Looked up when listed: the workflow of the run the event names. */
  readonly context?: { readonly workflow?: string };
}

const MAX_QUOTED = 120;
const DECISION_VERBS: Record<DecisionKind | "expired", string> = {
  approve: "approved",
  edit_and_approve: "edited and approved",
  reject: "rejected",
  reject_with_feedback: "rejected with feedback",
  expired: "let expire",
};

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);
const quoted = (value: string) => `“${value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}…` : value}”`;
/** Ids are UUIDs: the first 8 characters tell them apart on a page and match the search. */
export const shortId = (id: string) => (id.length > 12 ? id.slice(0, 8) : id);
/** "escalation:abc" → "abc"; "user:ada@example.com" → "ada@example.com". */
const targetName = (target: string) => target.slice(target.indexOf(":") + 1);
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

function day(value: unknown): string | null {
  const raw = text(value);
  if (!raw) return null;
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

function sessionsEnded(detail: Readonly<Record<string, unknown>>, other: boolean): string {
  return typeof detail.sessionsEnded === "number" ? `; ${plural(detail.sessionsEnded, other ? "other session" : "session")} ended` : "";
}

function userChange(detail: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const role = detail.role as { from?: unknown; to?: unknown } | undefined;
  if (role && text(role.to)) parts.push(`role ${text(role.from) ?? "?"} → ${text(role.to)}`);
  if (detail.disabled === true) parts.push("disabled");
  if (detail.disabled === false) parts.push("enabled");
  const email = detail.email as { from?: unknown; to?: unknown } | undefined;
  if (email && text(email.to)) parts.push(`address ${text(email.from) ?? "?"} → ${text(email.to)}`);
  return parts.length > 0 ? `: ${parts.join(", ")}` : "";
}

export function describeAuditEvent(event: AuditEventView): string {
  const who = event.actorEmail;
  const target = targetName(event.target);
  const detail = event.detail;
  switch (event.action) {
    case "sign_in.succeeded":
      return `${who} signed in`;
    case "sign_in.failed": {
      const why = detail.code === "INVALID_EMAIL_OR_PASSWORD" || detail.status === 401 ? " (wrong email or password)" : text(detail.code) ? ` (${text(detail.code)})` : "";
      return `A sign-in as ${who} failed${why}`;
    }
    case "sign_in.limited":
      return `Sign-ins as ${who} were refused for a while${text(detail.reason) ? `: ${text(detail.reason)}` : ""}`;
    case "sign_out":
      return `${who} signed out`;
    case "user.created":
      return `${who} created the user ${target}${text(detail.role) ? ` as ${text(detail.role)}` : ""}`;
    case "user.updated":
      return `${who} changed the user ${target}${userChange(detail)}`;
    case "user.password_reset":
      return `${who} reset the password of ${target}${detail.generated === true ? " (a generated one)" : detail.generated === false ? " (typed in)" : ""}${sessionsEnded(detail, false)}`;
    case "user.password_changed":
      return `${who} changed their password${sessionsEnded(detail, true)}`;
    case "user.password_change_failed":
      return `${who} gave a wrong current password when changing their password`;
    case "user.slack_verified": {
      const taken = Array.isArray(detail.takenFrom) ? detail.takenFrom.filter((email): email is string => typeof email === "string").slice(0, 5) : [];
      return `${who} verified the Slack member id ${text(detail.slackUserId) ?? "?"} as theirs${taken.length > 0 ? ` (it was linked to ${taken.join(", ")})` : ""}`;
    }
    case "token.created": {
      const expires = day(detail.expiresAt);
      return `${who} created the API token ${quoted(text(detail.name) ?? shortId(target))}${text(detail.for) ? ` for ${text(detail.for)}` : ""}${expires ? `, expiring ${expires}` : ""}`;
    }
    case "token.revoked":
      return `${who} revoked the API token ${quoted(text(detail.name) ?? shortId(target))}`;
    case "workflow.saved":
      return `${who} saved the workflow ${target}${typeof detail.version === "number" ? ` as version ${detail.version}` : ""}`;
    case "escalation.decided": {
      const decision = text(detail.decision);
      const verb = decision && decision in DECISION_VERBS ? DECISION_VERBS[decision as keyof typeof DECISION_VERBS] : `decided (${decision ?? "?"})`;
      const run = text(detail.runId);
      const workflow = event.context?.workflow;
      const comment = text(detail.comment);
      return `${who} ${verb} escalation ${shortId(target)}${run ? ` of run ${shortId(run)}` : ""}${workflow ? ` (workflow ${workflow})` : ""}${comment ? `: ${quoted(comment)}` : ""}`;
    }
    case "escalation.voted": {
      // A vote under a quorum policy (server/review-policy/quorum.ts); the decision, when it completes the quorum, is its own event.
      const vote = text(detail.vote) === "approve" ? "to approve" : text(detail.vote) === "reject" ? "to reject" : "on";
      const run = text(detail.runId);
      const workflow = event.context?.workflow;
      const approvals = Array.isArray(detail.approvedBy) && typeof detail.approvalsNeeded === "number" ? `: ${detail.approvedBy.length} of ${detail.approvalsNeeded} approvals` : "";
      return `${who} voted ${vote} escalation ${shortId(target)}${run ? ` of run ${shortId(run)}` : ""}${workflow ? ` (workflow ${workflow})` : ""}${approvals}`;
    }
    case "escalation.claimed":
      return `${who} claimed escalation ${shortId(target)}`;
    case "escalation.offered_to_backup":
    case "escalation.handed_off_at_deadline": {
      const run = text(detail.runId);
      const workflow = event.context?.workflow;
      const from = text(detail.from) ?? "every reviewer";
      const why = event.action === "escalation.offered_to_backup"
        ? `nobody claimed it${typeof detail.afterHours === "number" ? ` in ${detail.afterHours} h` : ""}`
        : `its deadline passed${typeof detail.hours === "number" ? `; ${detail.hours} h more` : ""}`;
      return `${who} handed escalation ${shortId(target)}${run ? ` of run ${shortId(run)}` : ""}${workflow ? ` (workflow ${workflow})` : ""} from ${from} to ${text(detail.to) ?? "?"}: ${why}`;
    }
    case "tool_call.reported": {
      const run = text(detail.runId);
      const workflow = event.context?.workflow;
      const resumed = detail.resumed === true ? "; the run resumed" : "";
      return `${who} reported the result of tool call ${shortId(target)}${run ? ` of run ${shortId(run)}` : ""}${workflow ? ` (workflow ${workflow})` : ""}${resumed}`;
    }
    case "reviewer_group.created":
      return `${who} created the reviewer group ${target}`;
    case "reviewer_group.updated":
      return `${who} changed the reviewer group ${target}${text(detail.renamedFrom) ? ` (renamed from ${text(detail.renamedFrom)})` : ""}`;
    case "reviewer_group.deleted":
      return `${who} deleted the reviewer group ${target}`;
    case "reviewer_group.member_added":
      return `${who} added ${text(detail.member) ?? "someone"} to the reviewer group ${target}`;
    case "reviewer_group.member_removed":
      return `${who} removed ${text(detail.member) ?? "someone"} from the reviewer group ${target}`;
    case "routing.saved":
      return `${who} saved routing version ${target.replace(/^v/, "")}${typeof detail.rules === "number" ? ` (${plural(detail.rules, "rule")})` : ""}${text(detail.comment) ? `: ${quoted(text(detail.comment)!)}` : ""}`;
    default:
      return `${who}: ${event.action} on ${event.target}`;
  }
}
