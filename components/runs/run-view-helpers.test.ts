import { describe, expect, it } from "vitest";
import { compareHref } from "./compare-href";
import { groupTimeline } from "./group-attempts";
import { isTerminalRunStatus } from "./run-status";
import { verdictOf } from "./verdict";

describe("groupTimeline", () => {
  it("puts attempts and step runs under their step, steps in the order they first started", () => {
    const attempts = [
      { stepName: "implement", attempt: 1 },
      { stepName: "implement", attempt: 2 },
    ];
    const runs = [
      { step: "observe", key: "observe" },
      { step: "ideate", key: "ideate" },
      { step: "observe", key: "observe#2" },
    ];
    expect(groupTimeline(attempts, runs, ["observe", "ideate", "implement"])).toEqual([
      { stepName: "observe", attempts: [], runs: [runs[0], runs[2]] },
      { stepName: "ideate", attempts: [], runs: [runs[1]] },
      { stepName: "implement", attempts, runs: [] },
    ]);
  });

  it("a step with entries but no recorded start comes after the ordered ones; a started step with nothing yet is left out", () => {
    const groups = groupTimeline([{ stepName: "implement" }], [{ step: "reflect" }], ["write_tests", "implement"]);
    expect(groups.map((group) => group.stepName)).toEqual(["implement", "reflect"]);
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

describe("compareHref", () => {
  it("puts A and B in the query, encoded", () => {
    expect(compareHref("r-1", "r 2&x")).toBe("/runs/compare?a=r-1&b=r%202%26x");
  });
});
