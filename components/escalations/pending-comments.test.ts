import { describe, expect, it } from "vitest";
import { LINE_COMMENT_LIMITS } from "@/server/review-comments/line-comment";
import { parsePendingComments, pendingCommentsKey, submittedComments } from "./pending-comments";

describe("pending comments in storage", () => {
  it("reads back what was stored, and submits it without local ids", () => {
    const stored = [
      { id: "a", line: 3, body: "why?" },
      { id: "b", line: 4, endLine: 6, body: "", suggestion: "pass" },
    ];
    const parsed = parsePendingComments(JSON.stringify(stored));
    expect(parsed).toEqual(stored);
    expect(submittedComments(parsed)).toEqual([
      { line: 3, body: "why?" },
      { line: 4, endLine: 6, body: "", suggestion: "pass" },
    ]);
  });

  it("drops what is not a well-formed comment, and never throws on hostile storage", () => {
    for (const junk of [null, "", "not json", "{}", '"text"', "42", "[null, 1, \"x\"]"]) expect(parsePendingComments(junk)).toEqual([]);
    const entries = [
      { id: "ok", line: 1, body: "fine" },
      { id: "zero", line: 0, body: "x" },
      { id: "fraction", line: 1.5, body: "x" },
      { id: "backwards", line: 5, endLine: 4, body: "x" },
      { id: "nobody", line: 1 },
      { id: "huge", line: 1, body: "x".repeat(LINE_COMMENT_LIMITS.body + 1) },
      { id: "badsuggestion", line: 1, body: "", suggestion: 7 },
      { line: 1, body: "no id" },
      { id: "extra", line: 2, body: "y", injected: "<script>" },
    ];
    expect(parsePendingComments(JSON.stringify(entries))).toEqual([
      { id: "ok", line: 1, body: "fine" },
      { id: "extra", line: 2, body: "y" },
    ]);
  });

  it("keeps at most the number of comments a decision takes", () => {
    const many = Array.from({ length: LINE_COMMENT_LIMITS.comments + 50 }, (_, index) => ({ id: String(index), line: 1, body: "x" }));
    expect(parsePendingComments(JSON.stringify(many))).toHaveLength(LINE_COMMENT_LIMITS.comments);
  });

  it("keys storage by escalation and artifact", () => {
    expect(pendingCommentsKey("e1", "h1")).not.toBe(pendingCommentsKey("e1", "h2"));
    expect(pendingCommentsKey("e1", "h1")).not.toBe(pendingCommentsKey("e2", "h1"));
  });
});
