import { describe, expect, it } from "vitest";
import { DEFAULT_ESCALATION_POLICY } from "@/server/review-policy/escalation-policy";
import { describePolicy } from "./describe-policy";

describe("describePolicy", () => {
  it("says the built-in behaviour plainly", () => {
    expect(describePolicy(DEFAULT_ESCALATION_POLICY)).toBe("every reviewer · workflow's deadline, then the run fails · email, slack");
  });
  it("names the group, quorum, deadline, hand-off, backup and channels", () => {
    expect(
      describePolicy({
        group: "security",
        quorum: { approvals: 2, excludeRunStarter: true, rejections: 2 },
        deadline: { hours: 8, action: "handoff", handoffGroup: "leads", handoffHours: 4 },
        backup: { group: "oncall", afterHours: 2 },
        channels: [],
        rule: "auth",
      }),
    ).toBe("security · 2 approvals (not the run's starter) · 2 rejections decide · 8 h, then handed to leads for 4 h · backup oncall after 2 h · no notifications");
  });
});
