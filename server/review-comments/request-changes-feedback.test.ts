import { describe, expect, it } from "vitest";
import { requestChangesFeedback } from "./request-changes-feedback";

const CODE = ["import os", "", "def disk_usage(path):", "    os.system('du -sh ' + path)", "", "disk_usage('.')"].join("\n");

describe("requestChangesFeedback", () => {
  it("lists every comment in line order with its line numbers and the quoted line, after the summary", () => {
    const feedback = requestChangesFeedback(CODE, "  Please avoid the shell.  ", [
      { line: 4, body: "never call os.system" },
      { line: 1, body: "unused once the shell call is gone" },
    ]);
    expect(feedback).toBe(
      [
        "Please avoid the shell.",
        "",
        "Review comments on your last attempt, by line number:",
        "line 1: unused once the shell call is gone",
        "  > import os",
        "line 4: never call os.system",
        "  > " + "    os.system('du -sh ' + path)",
      ].join("\n"),
    );
  });

  it("quotes the start of a range and counts the rest; shows suggestions and deletions", () => {
    const feedback = requestChangesFeedback(CODE, "", [
      { line: 1, endLine: 6, body: "rewrite this", suggestion: "print(1)\nprint(2)" },
      { line: 2, body: "", suggestion: "" },
    ]);
    expect(feedback).toContain("lines 1-6: rewrite this\n  > import os\n  > \n  > def disk_usage(path):\n  > … (3 more lines)\n  suggested replacement:\n  | print(1)\n  | print(2)");
    expect(feedback).toContain("line 2: suggested change\n  > \n  suggested: delete these lines");
    expect(feedback.startsWith("Review comments")).toBe(true);
  });

  it("cuts very long quoted lines and keeps the summary alone when there are no comments", () => {
    const long = "x".repeat(500);
    expect(requestChangesFeedback(long, "", [{ line: 1, body: "too long" }])).toBe(`Review comments on your last attempt, by line number:\nline 1: too long\n  > ${"x".repeat(160)}…`);
    expect(requestChangesFeedback(CODE, "just this", [])).toBe("just this");
  });
});
