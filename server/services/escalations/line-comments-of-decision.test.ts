import { describe, expect, it } from "vitest";
import { lineCommentsOfDecision } from "./line-comments-of-decision";

const CODE = "import os\nos.system('ls')\nprint(1)";
const none = { comment: "summary", editedContent: undefined };

describe("lineCommentsOfDecision", () => {
  it("without comments, leaves the decision as it was", () => {
    for (const decision of ["approve", "reject", "reject_with_feedback", "edit_and_approve"] as const) {
      expect(lineCommentsOfDecision(decision, CODE, { comment: "c", editedContent: "e", comments: [] })).toEqual({ comment: "c", editedContent: "e" });
    }
  });

  it("approve with remarks only keeps its comment; a suggestion is refused by name", () => {
    expect(lineCommentsOfDecision("approve", CODE, { ...none, comments: [{ line: 2, body: "fine here" }] })).toEqual({ comment: "summary", editedContent: undefined });
    expect(() => lineCommentsOfDecision("approve", CODE, { ...none, comments: [{ line: 1, body: "x" }, { line: 2, body: "", suggestion: "pass" }] })).toThrow(/^comments\[1\]\.suggestion: approve accepts the artifact as it is/);
  });

  it("edit and approve applies the suggestions, or keeps a hand edit when there are none; both at once is refused", () => {
    expect(lineCommentsOfDecision("edit_and_approve", CODE, { ...none, comments: [{ line: 2, body: "", suggestion: "print(0)" }] })).toEqual({ comment: "summary", editedContent: "import os\nprint(0)\nprint(1)" });
    expect(lineCommentsOfDecision("edit_and_approve", CODE, { comment: "", editedContent: "mine", comments: [{ line: 2, body: "why" }] })).toEqual({ comment: "", editedContent: "mine" });
    expect(() => lineCommentsOfDecision("edit_and_approve", CODE, { comment: "", editedContent: "mine", comments: [{ line: 2, body: "", suggestion: "x" }] })).toThrow("editedContent: give either an edited artifact or suggested changes, not both");
  });

  it("request changes composes the feedback; a plain reject keeps its reason", () => {
    expect(lineCommentsOfDecision("reject_with_feedback", CODE, { ...none, comments: [{ line: 2, body: "no shell" }] }).comment).toBe(
      "summary\n\nReview comments on your last attempt, by line number:\nline 2: no shell\n  > os.system('ls')",
    );
    expect(lineCommentsOfDecision("reject", CODE, { ...none, comments: [{ line: 2, body: "no shell" }] }).comment).toBe("summary");
  });

  it("refuses comments that do not fit whatever the decision", () => {
    for (const decision of ["approve", "reject", "reject_with_feedback", "edit_and_approve"] as const) {
      expect(() => lineCommentsOfDecision(decision, CODE, { ...none, comments: [{ line: 4, body: "x" }] })).toThrow("comments[0].line: line 4 is past the artifact's last line (3)");
    }
  });
});
