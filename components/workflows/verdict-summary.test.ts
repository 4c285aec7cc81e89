import { describe, expect, it } from "vitest";
import type { DocumentCheck } from "./document-verdict";
import { verdictSummary } from "./verdict-summary";

const warning = { path: "workflow.state_machine", line: 8, column: 3, message: "final_states not given: inferred as done (the states with no way out)" };
const problem = { path: "workflow.name", line: 2, column: 9, message: "must not be empty" };
const check = (ok: boolean, problems: DocumentCheck["problems"], warnings: DocumentCheck["warnings"]): DocumentCheck => ({ ok, problems, warnings, machine: null, problemStates: {}, problemTransitions: {}, warningStates: {} });

describe("verdictSummary", () => {
  it("says valid, and counts warnings beside it without making the document invalid", () => {
    expect(verdictSummary({ kind: "valid", check: check(true, [], []) })).toBe("Valid.");
    expect(verdictSummary({ kind: "valid", check: check(true, [], [warning]) })).toBe("Valid, 1 warning.");
    expect(verdictSummary({ kind: "valid", check: check(true, [], [warning, warning]) })).toBe("Valid, 2 warnings.");
  });

  it("counts problems and warnings apart when the document is invalid", () => {
    expect(verdictSummary({ kind: "invalid", check: check(false, [problem], []) })).toBe("1 problem.");
    expect(verdictSummary({ kind: "invalid", check: check(false, [problem, problem], [warning]) })).toBe("2 problems, 1 warning.");
  });

  it("has nothing to say without a verdict on this text", () => {
    expect(verdictSummary({ kind: "checking" })).toBeNull();
    expect(verdictSummary({ kind: "empty" })).toBeNull();
    expect(verdictSummary({ kind: "unavailable", message: "HTTP 431" })).toBeNull();
  });
});
