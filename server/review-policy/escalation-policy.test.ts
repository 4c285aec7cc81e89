import { describe, expect, it } from "vitest";
import { DEFAULT_ESCALATION_POLICY, escalationPolicyOf, POLICY_LIMITS } from "./escalation-policy";

describe("escalationPolicyOf", () => {
  it("is the default for nothing stored or a non-object", () => {
    expect(escalationPolicyOf(null)).toBe(DEFAULT_ESCALATION_POLICY);
    expect(escalationPolicyOf([1, 2])).toBe(DEFAULT_ESCALATION_POLICY);
    expect(escalationPolicyOf("fail")).toBe(DEFAULT_ESCALATION_POLICY);
  });

  it("reads a full policy back", () => {
    const stored = {
      group: "security",
      quorum: { approvals: 2, excludeRunStarter: true, rejections: 2 },
      deadline: { hours: 8, action: "handoff", handoffGroup: "leads", handoffHours: 4 },
      backup: { group: "oncall", afterHours: 2 },
      channels: ["slack"],
      rule: "auth code",
    };
    expect(escalationPolicyOf(stored)).toEqual(stored);
  });

  it("never reads an approval at the deadline, and clamps hostile numbers", () => {
    const policy = escalationPolicyOf({ quorum: { approvals: 1e9, rejections: -3 }, deadline: { action: "approve", hours: Infinity }, channels: ["fax", "email"] });
    expect(policy.deadline.action).toBe("fail");
    expect(policy.deadline.hours).toBeNull();
    expect(policy.quorum.approvals).toBe(POLICY_LIMITS.maxApprovals);
    expect(policy.quorum.rejections).toBe(1);
    expect(policy.channels).toEqual(["email"]);
  });

  it("drops a hand-off group unless the action is a hand-off, and a backup without hours", () => {
    const policy = escalationPolicyOf({ deadline: { action: "reject", handoffGroup: "leads" }, backup: { group: "oncall" } });
    expect(policy.deadline.handoffGroup).toBeNull();
    expect(policy.backup).toBeNull();
  });
});
