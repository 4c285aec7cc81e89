import { describe, expect, it } from "vitest";
import { approvalRefusal, UNSEEN_CODE_REFUSAL } from "./seen-code-rule";

describe("approvalRefusal", () => {
  it("refuses approving fatal code the reviewer has not opened", () => {
    expect(approvalRefusal({ fatal: true, seenByYou: false })).toBe(UNSEEN_CODE_REFUSAL);
  });

  it("allows it once seen, and never asks for a view of a non-fatal escalation", () => {
    expect(approvalRefusal({ fatal: true, seenByYou: true })).toBeNull();
    expect(approvalRefusal({ fatal: false, seenByYou: false })).toBeNull();
  });
});
