import { describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { escalationEmail } from "./escalation-email";
import { parseReminderHours, reminderEvent, reminderHoursOf } from "./reminder-event";

describe("reminder points", () => {
  it("reads hours before the deadline, distinct, latest first", () => {
    expect(parseReminderHours("2, 24,24")).toEqual([24, 2]);
    expect(parseReminderHours("0.5")).toEqual([0.5]);
    expect(parseReminderHours("none")).toEqual([]);
  });

  it.each(["0", "-1", "abc", "1e3", "9000", "1,2,3,4,5,6"])("refuses %j, saying why", (text) => {
    expect(() => parseReminderHours(text)).toThrow(/not a number of hours|at most 5/);
  });

  it("names its outbox events and reads them back", () => {
    expect(reminderEvent(24)).toBe("reminder:24h");
    expect(reminderHoursOf("reminder:0.5h")).toBe(0.5);
    expect(reminderHoursOf("created")).toBeNull();
  });

  it("is configured by DUALSTATE_REMINDER_HOURS, 24 hours unless set, and named when wrong", () => {
    expect(parseEnv({}).DUALSTATE_REMINDER_HOURS).toEqual([24]);
    expect(parseEnv({ DUALSTATE_REMINDER_HOURS: "48, 4" }).DUALSTATE_REMINDER_HOURS).toEqual([48, 4]);
    expect(() => parseEnv({ DUALSTATE_REMINDER_HOURS: "soon" })).toThrow('DUALSTATE_REMINDER_HOURS: "soon" is not a number of hours');
  });

  it("a reminder email says so first, in its subject and its text", () => {
    const facts = { workflow: "tdd", runId: "r", stepName: "implement", guardId: "g", fatal: true, feedback: "line 1: no", offendingLines: [], expiresAt: null, reviewUrl: "u", approveUrl: "a", rejectUrl: "r" };
    const email = escalationEmail({ ...facts, reminderHours: 24 });
    expect(email.subject).toBe("[Dualstate] Reminder, 24 h left: Fatal escalation: tdd / implement (g)");
    expect(email.text.split("\n")[0]).toBe("Reminder: this escalation still waits for a decision, and its deadline is about 24 h away.");
    expect(escalationEmail(facts).subject).toBe("[Dualstate] Fatal escalation: tdd / implement (g)");
  });
});
