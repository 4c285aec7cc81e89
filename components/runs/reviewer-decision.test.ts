import { describe, expect, it } from "vitest";
import { reviewerDecisionOf } from "./reviewer-decision";

const escalation = (fields: { id?: string; artifactId?: string; decision: string | null; comment?: string | null }) => ({
  id: fields.id ?? "e-1",
  artifactId: fields.artifactId ?? "a-1",
  decision: fields.decision,
  decidedBy: fields.decision ? "rita@example.com" : null,
  comment: fields.comment ?? null,
});

describe("reviewerDecisionOf", () => {
  it("gives the reviewer's feedback on the attempt they sent back", () => {
    expect(reviewerDecisionOf("a-1", [escalation({ decision: "reject_with_feedback", comment: "Use a dict, not a list" })])).toEqual({
      escalationId: "e-1",
      label: "sent back with feedback",
      decidedBy: "rita@example.com",
      comment: "Use a dict, not a list",
      isFeedback: true,
    });
  });

  it("names an edit and a rejection; a blank comment is no comment", () => {
    expect(reviewerDecisionOf("a-1", [escalation({ decision: "edit_and_approve", comment: "  " })])).toMatchObject({ label: "edited and approved", comment: null, isFeedback: false });
    expect(reviewerDecisionOf("a-1", [escalation({ decision: "reject", comment: "unsafe" })])).toMatchObject({ label: "rejected", comment: "unsafe" });
  });

  it("nothing for a pending escalation or another attempt's", () => {
    expect(reviewerDecisionOf("a-1", [escalation({ decision: null })])).toBeNull();
    expect(reviewerDecisionOf("a-2", [escalation({ decision: "approve" })])).toBeNull();
  });
});
