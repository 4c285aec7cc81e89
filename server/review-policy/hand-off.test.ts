import { describe, expect, it } from "vitest";
import { DEFAULT_ESCALATION_POLICY, escalationPolicyOf, type EscalationPolicy } from "./escalation-policy";
import { deadlineStepOf, describeDeadlineStep, describeHandOff, formatHours, HANDOFF_AUDIT_ACTIONS, handOffReasonOf } from "./hand-off";

const withDeadline = (deadline: Partial<EscalationPolicy["deadline"]>): EscalationPolicy => ({ ...DEFAULT_ESCALATION_POLICY, deadline: { ...DEFAULT_ESCALATION_POLICY.deadline, ...deadline } });

describe("the step at a deadline", () => {
  it.each([
    ["fail", withDeadline({ action: "fail" }), false, { kind: "fail" }],
    ["reject", withDeadline({ action: "reject" }), false, { kind: "reject", comment: "nobody decided before the deadline" }],
    ["handoff, the first time", withDeadline({ action: "handoff", handoffGroup: "leads", handoffHours: 4 }), false, { kind: "handoff", group: "leads", hours: 4 }],
    ["handoff, after a hand-off at a deadline", withDeadline({ action: "handoff", handoffGroup: "leads", handoffHours: 4 }), true, { kind: "fail" }],
    ["handoff without a group", withDeadline({ action: "handoff", handoffGroup: null, handoffHours: 4 }), false, { kind: "fail" }],
    ["handoff without hours", withDeadline({ action: "handoff", handoffGroup: "leads", handoffHours: null }), false, { kind: "fail" }],
    ["reject, even after a hand-off", withDeadline({ action: "reject" }), true, { kind: "reject", comment: "nobody decided before the deadline" }],
  ])("%s", (_name, policy, handedOff, expected) => {
    expect(deadlineStepOf(policy, handedOff)).toEqual(expected);
  });

  it("never approves: a stored 'approve' (or anything unknown) reads as fail", () => {
    for (const action of ["approve", "APPROVE", "", 1, null]) {
      expect(deadlineStepOf(escalationPolicyOf({ deadline: { action, handoffGroup: "leads", handoffHours: 4 } }), false)).toEqual({ kind: "fail" });
    }
  });

  it("is described for the review page", () => {
    expect(describeDeadlineStep(DEFAULT_ESCALATION_POLICY, false)).toBe("At the deadline: the run fails.");
    expect(describeDeadlineStep(withDeadline({ action: "reject" }), false)).toMatch(/^At the deadline: rejected/);
    expect(describeDeadlineStep(withDeadline({ action: "handoff", handoffGroup: "leads", handoffHours: 0.5 }), false)).toBe("At the deadline: handed to leads for 30 min; at the deadline after that the run fails.");
    expect(describeDeadlineStep(withDeadline({ action: "handoff", handoffGroup: "leads", handoffHours: 4 }), true)).toBe("At the deadline: the run fails (it was already handed to leads at a deadline).");
  });
});

describe("hand-offs", () => {
  it("map audit actions to reasons and back", () => {
    expect(handOffReasonOf(HANDOFF_AUDIT_ACTIONS.backup)).toBe("backup");
    expect(handOffReasonOf(HANDOFF_AUDIT_ACTIONS.deadline)).toBe("deadline");
    expect(handOffReasonOf("escalation.decided")).toBeNull();
  });

  it("are described with the group they came from and when", () => {
    const at = new Date("2026-11-26T14:02:33Z");
    expect(describeHandOff("oncall", { reason: "backup", from: "security", to: "oncall", at })).toBe("Offered to oncall (handed off from security at 2026-11-26 14:02 UTC: nobody claimed it in time).");
    expect(describeHandOff("leads", { reason: "deadline", from: null, to: "leads", at })).toBe("Offered to leads (handed off from every reviewer at 2026-11-26 14:02 UTC: its deadline passed).");
    expect(describeHandOff("security", null)).toBeNull();
  });

  it("format hours", () => {
    expect(formatHours(4)).toBe("4 h");
    expect(formatHours(1.5)).toBe("1.5 h");
    expect(formatHours(0.25)).toBe("15 min");
  });
});
