import { describe, expect, it } from "vitest";
import { describeAuditEvent, type AuditEventView } from "./describe-audit-event";

const event = (action: string, target: string, detail: Record<string, unknown> = {}, context?: AuditEventView["context"]): AuditEventView => ({ actorEmail: "ada@example.com", action, target, detail, context });
const ESCALATION = "0c1d2e3f-aaaa-bbbb-cccc-000000000012";
const RUN = "9f8e7d6c-1111-2222-3333-444444444444";

describe("describeAuditEvent", () => {
  it.each([
    [event("sign_in.succeeded", "user:ada@example.com"), "ada@example.com signed in"],
    [event("sign_in.failed", "user:ada@example.com", { status: 401, code: "INVALID_EMAIL_OR_PASSWORD" }), "A sign-in as ada@example.com failed (wrong email or password)"],
    [event("sign_in.failed", "user:ada@example.com", { status: 400, code: "INVALID_EMAIL" }), "A sign-in as ada@example.com failed (INVALID_EMAIL)"],
    [event("sign_in.limited", "user:ada@example.com", { reason: "5 failures for this email" }), "Sign-ins as ada@example.com were refused for a while: 5 failures for this email"],
    [event("sign_out", "user:ada@example.com"), "ada@example.com signed out"],
    [event("user.created", "user:bob@example.com", { role: "reviewer" }), "ada@example.com created the user bob@example.com as reviewer"],
    [event("user.updated", "user:bob@example.com", { role: { from: "viewer", to: "admin" }, disabled: true }), "ada@example.com changed the user bob@example.com: role viewer → admin, disabled"],
    [event("user.password_reset", "user:bob@example.com", { generated: true, sessionsEnded: 2 }), "ada@example.com reset the password of bob@example.com (a generated one); 2 sessions ended"],
    [event("user.password_changed", "user:ada@example.com", { sessionsEnded: 1 }), "ada@example.com changed their password; 1 other session ended"],
    [event("user.password_change_failed", "user:ada@example.com", { reason: "wrong current password" }), "ada@example.com gave a wrong current password when changing their password"],
    [event("user.slack_verified", "user:ada@example.com", { slackUserId: "U0ADA", takenFrom: [], claimsDropped: ["eve@example.com"] }), "ada@example.com verified the Slack member id U0ADA as theirs"],
    [event("user.slack_verified", "user:ada@example.com", { slackUserId: "U0ADA", takenFrom: ["old@example.com"] }), "ada@example.com verified the Slack member id U0ADA as theirs (it was linked to old@example.com)"],
    [event("token.created", "token:t1", { name: "CI", for: "bob@example.com", expiresAt: "2026-12-25T10:00:00.000Z" }), "ada@example.com created the API token “CI” for bob@example.com, expiring 2026-12-25"],
    [event("token.revoked", "token:t1", { name: "CI" }), "ada@example.com revoked the API token “CI”"],
    [event("workflow.saved", "workflow:tdd-lru-cache", { version: 3 }), "ada@example.com saved the workflow tdd-lru-cache as version 3"],
    [
      event("escalation.decided", `escalation:${ESCALATION}`, { runId: RUN, decision: "approve", comment: "the command is safe" }, { workflow: "tdd" }),
      "ada@example.com approved escalation 0c1d2e3f of run 9f8e7d6c (workflow tdd): “the command is safe”",
    ],
    [event("escalation.decided", `escalation:${ESCALATION}`, { runId: RUN, decision: "reject_with_feedback" }), "ada@example.com rejected with feedback escalation 0c1d2e3f of run 9f8e7d6c"],
    [
      { ...event("escalation.offered_to_backup", `escalation:${ESCALATION}`, { runId: RUN, from: "security", to: "oncall", afterHours: 2 }), actorEmail: "backup policy" },
      "backup policy handed escalation 0c1d2e3f of run 9f8e7d6c from security to oncall: nobody claimed it in 2 h",
    ],
    [
      { ...event("escalation.handed_off_at_deadline", `escalation:${ESCALATION}`, { runId: RUN, from: null, to: "leads", hours: 4 }, { workflow: "tdd" }), actorEmail: "deadline policy" },
      "deadline policy handed escalation 0c1d2e3f of run 9f8e7d6c (workflow tdd) from every reviewer to leads: its deadline passed; 4 h more",
    ],
    [
      event("escalation.voted", `escalation:${ESCALATION}`, { runId: RUN, vote: "approve", approvedBy: ["ada@example.com"], approvalsNeeded: 2 }, { workflow: "tdd" }),
      "ada@example.com voted to approve escalation 0c1d2e3f of run 9f8e7d6c (workflow tdd): 1 of 2 approvals",
    ],
    [event("escalation.voted", `escalation:${ESCALATION}`, { vote: "reject" }), "ada@example.com voted to reject escalation 0c1d2e3f"],
    [
      event("tool_call.reported", "tool_call:5e6f7a8b-aaaa-bbbb-cccc-000000000001", { runId: RUN, resumed: true }, { workflow: "deploy" }),
      "ada@example.com reported the result of tool call 5e6f7a8b of run 9f8e7d6c (workflow deploy); the run resumed",
    ],
  ])("%#: %s", (input, sentence) => {
    expect(describeAuditEvent(input)).toBe(sentence);
  });

  it("reads details of another shape without failing, and cuts long text", () => {
    expect(describeAuditEvent(event("escalation.decided", "escalation:e1", { runId: 42, decision: ["x"], comment: "c".repeat(500) }))).toBe(
      `ada@example.com decided (?) escalation e1: “${"c".repeat(120)}…”`,
    );
    expect(describeAuditEvent(event("token.created", "token:0c1d2e3f-aaaa-bbbb-cccc-000000000012", { expiresAt: "not a date" }))).toBe("ada@example.com created the API token “0c1d2e3f”");
    expect(describeAuditEvent(event("user.updated", "user:bob@example.com", { role: "admin" }))).toBe("ada@example.com changed the user bob@example.com");
  });

  it("names an action it does not know as it is", () => {
    expect(describeAuditEvent(event("webhook.sent", "escalation:e1"))).toBe("ada@example.com: webhook.sent on escalation:e1");
  });
});
