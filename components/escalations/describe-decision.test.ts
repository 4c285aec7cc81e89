import { describe, expect, it } from "vitest";
import { describeDecision, formatDecisionTime } from "./describe-decision";

const at = new Date("2026-11-25T23:40:12.345Z");
const decided = (decision: string, status: string, comment: string | null = null) => ({ status, decision, decidedBy: "ada@example.test", decidedAt: at, comment });

describe("describeDecision", () => {
  it("says who decided what and when", () => {
    expect(describeDecision(decided("approve", "approved"))).toBe("Approved by ada@example.test at 2026-11-25 23:40 UTC");
    expect(describeDecision(decided("edit_and_approve", "approved"))).toBe("Edited and approved by ada@example.test at 2026-11-25 23:40 UTC");
  });

  it("quotes a rejection's reason or feedback", () => {
    expect(describeDecision(decided("reject", "rejected", "never shell out"))).toBe("Rejected by ada@example.test at 2026-11-25 23:40 UTC: never shell out");
    expect(describeDecision(decided("reject_with_feedback", "rejected", " read stdin "))).toBe("Rejected with feedback by ada@example.test at 2026-11-25 23:40 UTC: read stdin");
  });

  it("describes an escalation no one decided by its status", () => {
    expect(describeDecision({ status: "expired", decision: "expired", decidedBy: null, decidedAt: at, comment: "escalation expired" })).toBe("Expired at 2026-11-25 23:40 UTC: escalation expired");
    expect(describeDecision({ status: "cancelled", decision: null, decidedBy: null, decidedAt: null, comment: null })).toBe("Cancelled");
  });

  it("is null while pending", () => {
    expect(describeDecision({ status: "pending", decision: null, decidedBy: null, decidedAt: null, comment: null })).toBeNull();
  });

  it("formats the time in UTC to the minute", () => {
    expect(formatDecisionTime(at)).toBe("2026-11-25 23:40 UTC");
  });
});
