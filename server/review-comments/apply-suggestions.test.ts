import { describe, expect, it } from "vitest";
import { applySuggestions, MAX_EDITED_CONTENT } from "./apply-suggestions";
import { LINE_COMMENT_LIMITS, lineCommentProblems } from "./line-comment";

const CODE = ["import os", "", "def disk_usage(path):", "    os.system('du -sh ' + path)", "", "disk_usage('.')"].join("\n");

describe("applySuggestions", () => {
  it("replaces a single line with the suggestion", () => {
    const result = applySuggestions(CODE, [{ line: 4, body: "no shell", suggestion: "    return len(path)" }]);
    expect(result).toEqual({ ok: true, applied: 1, content: CODE.replace("    os.system('du -sh ' + path)", "    return len(path)") });
  });

  it("replaces a range with more or fewer lines, and an empty suggestion deletes", () => {
    const result = applySuggestions(CODE, [
      { line: 1, endLine: 2, body: "no import needed", suggestion: "" },
      { line: 4, body: "", suggestion: "    size = len(path)\n    return size" },
    ]);
    expect(result).toEqual({ ok: true, applied: 2, content: ["def disk_usage(path):", "    size = len(path)", "    return size", "", "disk_usage('.')"].join("\n") });
  });

  it("applies suggestions given in any order, and ignores comments without one", () => {
    const result = applySuggestions(CODE, [
      { line: 6, body: "", suggestion: "print(disk_usage('.'))" },
      { line: 3, body: "a remark only" },
      { line: 1, body: "", suggestion: "import sys" },
    ]);
    expect(result.ok && result.content.split("\n")).toEqual(["import sys", "", "def disk_usage(path):", "    os.system('du -sh ' + path)", "", "print(disk_usage('.'))"]);
    expect(result.ok && result.applied).toBe(2);
  });

  it("keeps a trailing newline and can suggest on the empty last line", () => {
    const withNewline = "a\nb\n";
    expect(applySuggestions(withNewline, [{ line: 1, body: "", suggestion: "A" }])).toMatchObject({ ok: true, content: "A\nb\n" });
    expect(applySuggestions(withNewline, [{ line: 3, body: "", suggestion: "c" }])).toMatchObject({ ok: true, content: "a\nb\nc" });
  });

  it("gives a suggestion's lines the artifact's line ending: CRLF stays CRLF, whatever the browser sent", () => {
    const crlf = CODE.replaceAll("\n", "\r\n") + "\r\n";
    const middle = applySuggestions(crlf, [{ line: 4, body: "", suggestion: "    size = len(path)\n    return size" }]);
    expect(middle).toEqual({ ok: true, applied: 1, content: crlf.replace("    os.system('du -sh ' + path)\r\n", "    size = len(path)\r\n    return size\r\n") });
    const noFinalNewline = "a\r\nb";
    expect(applySuggestions(noFinalNewline, [{ line: 2, body: "", suggestion: "x\r\ny" }])).toEqual({ ok: true, applied: 1, content: "a\r\nx\r\ny" });
    expect(applySuggestions("a\nb\n", [{ line: 1, body: "", suggestion: "x\r\ny" }])).toEqual({ ok: true, applied: 1, content: "x\ny\nb\n" });
  });

  it("refuses overlapping suggestions, naming both comments", () => {
    expect(applySuggestions(CODE, [{ line: 3, endLine: 4, body: "", suggestion: "x" }, { line: 4, body: "", suggestion: "y" }])).toEqual({
      ok: false,
      problem: "comments[1]: its suggestion on line 4 overlaps the suggestion of comments[0] on lines 3-4; keep one of them",
    });
    // The same line twice is an overlap too; adjacent ranges are not.
    expect(applySuggestions(CODE, [{ line: 2, body: "", suggestion: "x" }, { line: 2, body: "", suggestion: "y" }]).ok).toBe(false);
    expect(applySuggestions(CODE, [{ line: 1, endLine: 2, body: "", suggestion: "x" }, { line: 3, body: "", suggestion: "y" }]).ok).toBe(true);
    // A remark on an overlapping line is not a suggestion and does not conflict.
    expect(applySuggestions(CODE, [{ line: 3, endLine: 4, body: "", suggestion: "x" }, { line: 4, body: "why?" }]).ok).toBe(true);
  });

  it("refuses lines outside the artifact and backwards ranges", () => {
    expect(applySuggestions(CODE, [{ line: 7, body: "", suggestion: "x" }])).toEqual({ ok: false, problem: "comments[0].line: line 7 is past the artifact's last line (6)" });
    expect(applySuggestions(CODE, [{ line: 0, body: "", suggestion: "x" }])).toEqual({ ok: false, problem: "comments[0].line: must be a line number from 1" });
    expect(applySuggestions(CODE, [{ line: 5, endLine: 9, body: "", suggestion: "x" }])).toEqual({ ok: false, problem: "comments[0].endLine: line 9 is past the artifact's last line (6)" });
    expect(applySuggestions(CODE, [{ line: 5, endLine: 4, body: "", suggestion: "x" }])).toEqual({ ok: false, problem: "comments[0].endLine: must be a line number from line 5 on" });
    expect(applySuggestions(CODE, [{ line: 1.5, body: "", suggestion: "x" }]).ok).toBe(false);
  });

  it("refuses when there is nothing to apply", () => {
    expect(applySuggestions(CODE, [])).toEqual({ ok: false, problem: "comments: there is no suggested change to apply" });
    expect(applySuggestions(CODE, [{ line: 1, body: "remark" }])).toEqual({ ok: false, problem: "comments: there is no suggested change to apply" });
  });

  it("bounds sizes: a suggestion, a range, the number of comments and the edited result", () => {
    expect(applySuggestions(CODE, [{ line: 1, body: "", suggestion: "x".repeat(LINE_COMMENT_LIMITS.suggestion + 1) }])).toMatchObject({ ok: false, problem: expect.stringContaining("comments[0].suggestion: must be at most") });
    const long = Array.from({ length: LINE_COMMENT_LIMITS.rangeLines + 2 }, (_, index) => `line ${index}`).join("\n");
    expect(applySuggestions(long, [{ line: 1, endLine: LINE_COMMENT_LIMITS.rangeLines + 1, body: "", suggestion: "x" }])).toMatchObject({ ok: false, problem: expect.stringContaining("spans at most") });
    const many = Array.from({ length: LINE_COMMENT_LIMITS.comments + 1 }, () => ({ line: 1, body: "x" }));
    expect(applySuggestions(CODE, many)).toMatchObject({ ok: false, problem: expect.stringContaining(`at most ${LINE_COMMENT_LIMITS.comments} comments`) });
    // Each suggestion within its bound, the sum over an edit's.
    const lines = Array.from({ length: 30 }, (_, index) => `l${index}`).join("\n");
    const big = Array.from({ length: 30 }, (_, index) => ({ line: index + 1, body: "", suggestion: "y".repeat(LINE_COMMENT_LIMITS.suggestion) }));
    expect(applySuggestions(lines, big)).toMatchObject({ ok: false, problem: expect.stringContaining(`an edit has at most ${MAX_EDITED_CONTENT}`) });
  });
});

describe("lineCommentProblems", () => {
  it("needs a remark or a suggestion, and bounds the remark", () => {
    expect(lineCommentProblems(CODE, [{ line: 1, body: "  " }])).toEqual(["comments[0].body: a comment needs a remark or a suggested change"]);
    expect(lineCommentProblems(CODE, [{ line: 1, body: "x".repeat(LINE_COMMENT_LIMITS.body + 1) }])).toEqual([`comments[0].body: must be at most ${LINE_COMMENT_LIMITS.body} characters`]);
    expect(lineCommentProblems(CODE, [{ line: 1, body: "fine" }, { line: 99, body: "x" }, { line: 2, body: "", suggestion: "" }])).toEqual(["comments[1].line: line 99 is past the artifact's last line (6)"]);
  });
});
