import { describe, expect, it } from "vitest";
import { escalationEmail } from "./escalation-email";
import { handOffDeliveries } from "./handoff-recipients";
import { handoffEvent, handoffGroupOf, reminderHoursOf } from "./reminder-event";

const ada = { email: "ada@example.test", notifyByEmail: true, notifyBySlack: false, slackUserId: null };
const bob = { email: "bob@example.test", notifyByEmail: false, notifyBySlack: true, slackUserId: "U0BOB" };
const cy = { email: "cy@example.test", notifyByEmail: true, notifyBySlack: true, slackUserId: null };
const oncall = { name: "oncall", notifyEmail: true, notifySlack: true, hasSlackTarget: true };

describe("who is told of a hand-off", () => {
  it("members on their own channels, and the group's Slack channel", () => {
    expect(handOffDeliveries(oncall, [ada, bob, cy], ["email", "slack"])).toEqual([
      { recipient: "ada@example.test", channel: "email" },
      { recipient: "cy@example.test", channel: "email" },
      // cy wants Slack but has no Slack id: no direct message.
      { recipient: "bob@example.test", channel: "slack" },
      { recipient: "group:oncall", channel: "slack" },
    ]);
  });

  it("only on the channels the policy allows and the group has on", () => {
    expect(handOffDeliveries(oncall, [ada, bob], ["email"])).toEqual([{ recipient: "ada@example.test", channel: "email" }]);
    expect(handOffDeliveries({ ...oncall, notifyEmail: false, notifySlack: false }, [ada, bob], ["email", "slack"])).toEqual([{ recipient: "bob@example.test", channel: "slack" }]);
    expect(handOffDeliveries({ ...oncall, hasSlackTarget: false }, [], ["slack"])).toEqual([]);
    expect(handOffDeliveries(oncall, [ada, bob], [])).toEqual([]);
  });

  it("names its outbox event and reads the group back", () => {
    expect(handoffEvent("leads")).toBe("handoff:leads");
    expect(handoffGroupOf("handoff:leads")).toBe("leads");
    expect(handoffGroupOf("handoff:")).toBeNull();
    expect(handoffGroupOf("created")).toBeNull();
    expect(reminderHoursOf(handoffEvent("leads"))).toBeNull();
  });

  it("its email says so first, in the subject and the text, on one line whatever the group is called", () => {
    const facts = { workflow: "tdd", runId: "r", stepName: "implement", guardId: "g", fatal: true, feedback: "no", offendingLines: [], expiresAt: null, reviewUrl: "u", approveUrl: "a", rejectUrl: "r" };
    const email = escalationEmail({ ...facts, handedOffTo: "oncall" });
    expect(email.subject).toBe("[Dualstate] Handed to oncall: Fatal escalation: tdd / implement (g)");
    expect(email.text.split("\n")[0]).toBe("Handed to your group oncall: nobody claimed or decided this escalation in time, so it is offered to you now.");
    expect(escalationEmail({ ...facts, handedOffTo: "a\r\nBcc: x@example.test" }).subject).not.toMatch(/[\r\n]/);
    expect(escalationEmail({ ...facts, handedOffTo: "<b>x</b>" }).html).not.toContain("<b>x</b>");
  });
});
