import { describe, expect, it } from "vitest";
import { REASON_MAX_CHARS, isAwaitingHuman, normaliseReason, topFailureReasons, type FailedVerdict } from "./failure-reasons";

describe("normalising guard feedback into a reason", () => {
  it("keeps the first non-empty line, whitespace collapsed", () => {
    expect(normaliseReason("\n\n  AssertionError:   expected 5\n  at test_x (line 3)")).toBe("AssertionError: expected 5");
    expect(normaliseReason("   \n\t")).toBe("(no feedback)");
    expect(normaliseReason("")).toBe("(no feedback)");
  });

  it("masks positions, durations and ids, but keeps the other numbers", () => {
    expect(normaliseReason("SyntaxError at line 12, column 4: invalid syntax")).toBe("SyntaxError at line N, column N: invalid syntax");
    expect(normaliseReason('File "main.py":7:13 expected an indented block')).toBe('File "main.py":N:N expected an indented block');
    expect(normaliseReason("Timed out after 1500 ms")).toBe("Timed out after N ms");
    expect(normaliseReason("artifact 3f2a9c1e-0b4d-4e8f-9a7b-1c2d3e4f5a6b differs from 9f86d081884c7d65")).toBe("artifact <id> differs from <id>");
    expect(normaliseReason("expected 5 but got 7")).toBe("expected 5 but got 7");
  });

  it("cuts a long line to a bounded length", () => {
    const reason = normaliseReason(`x${"y".repeat(1000)}`);
    expect(reason).toHaveLength(REASON_MAX_CHARS);
    expect(reason.endsWith("…")).toBe(true);
  });

  it("knows a human guard's wait, also inside a composite guard", () => {
    expect(isAwaitingHuman("Awaiting a human decision: check the style")).toBe(true);
    expect(isAwaitingHuman("Guard 2 of 2: Awaiting a human decision")).toBe(true);
    expect(isAwaitingHuman("Guard 1 of 2: SyntaxError")).toBe(false);
  });
});

describe("the most frequent failure reasons", () => {
  const verdict = (guardId: string, feedback: string, extra: Partial<FailedVerdict> = {}): FailedVerdict => ({ guardId, stepName: "implement", feedback, fatal: false, runId: "run-1", ...extra });

  it("groups by guard and normalised first line, most frequent first, and counts fatal ones", () => {
    const reasons = topFailureReasons(
      [
        verdict("g_tests", "test_small failed at line 3\ndetails", { runId: "newest" }),
        verdict("g_tests", "test_small failed at line 9\nother details"),
        verdict("g_tests", "test_small failed at line 4", { fatal: true, stepName: "review" }),
        verdict("g_syntax", "test_small failed at line 3"),
        verdict("g_syntax", "SyntaxError: invalid syntax"),
        verdict("g_syntax", "SyntaxError: invalid syntax", { fatal: true }),
        verdict("g_human", "Awaiting a human decision: please look"),
      ],
      10,
    );
    expect(reasons).toEqual([
      { guardId: "g_tests", reason: "test_small failed at line N", count: 3, fatalCount: 1, steps: ["implement", "review"], exampleRunId: "newest" },
      { guardId: "g_syntax", reason: "SyntaxError: invalid syntax", count: 2, fatalCount: 1, steps: ["implement"], exampleRunId: "run-1" },
      { guardId: "g_syntax", reason: "test_small failed at line N", count: 1, fatalCount: 0, steps: ["implement"], exampleRunId: "run-1" },
    ]);
  });

  it("returns at most `limit` reasons, ties in a stable order", () => {
    const verdicts = ["c", "a", "b"].map((reason) => verdict("g", reason));
    expect(topFailureReasons(verdicts, 2).map((r) => r.reason)).toEqual(["a", "b"]);
    expect(topFailureReasons([], 5)).toEqual([]);
  });
});
