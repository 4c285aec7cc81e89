import { describe, expect, it } from "vitest";
import { groupAttemptsByStep } from "./group-attempts";
import { isTerminalRunStatus } from "./run-status";
import { verdictOf } from "./verdict";

describe("groupAttemptsByStep", () => {
  it("keeps steps in the order of their first attempt and attempts in order within a step", () => {
    const attempts = [
      { stepName: "write_tests", attempt: 1 },
      { stepName: "implement", attempt: 1 },
      { stepName: "implement", attempt: 2 },
      { stepName: "write_tests", attempt: 2 },
    ];
    expect(groupAttemptsByStep(attempts)).toEqual([
      { stepName: "write_tests", attempts: [attempts[0], attempts[3]] },
      { stepName: "implement", attempts: [attempts[1], attempts[2]] },
    ]);
  });

  it("gives no groups for no attempts", () => {
    expect(groupAttemptsByStep([])).toEqual([]);
  });
});

describe("isTerminalRunStatus", () => {
  it.each([
    ["queued", false],
    ["dispatched", false],
    ["running", false],
    ["suspended", false],
    ["succeeded", true],
    ["failed", true],
    ["escalated", true],
    ["cancelled", true],
  ] as const)("%s → %s", (status, terminal) => {
    expect(isTerminalRunStatus(status)).toBe(terminal);
  });
});

describe("verdictOf", () => {
  it.each([
    [{ passed: true, fatal: false }, "passed"],
    [{ passed: false, fatal: false }, "failed"],
    [{ passed: false, fatal: true }, "FATAL"],
  ] as const)("%o → %s", (attempt, verdict) => {
    expect(verdictOf(attempt)).toBe(verdict);
  });
});
