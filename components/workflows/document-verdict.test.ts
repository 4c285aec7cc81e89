import { describe, expect, it } from "vitest";
import { documentVerdict, type DocumentCheck } from "./document-verdict";

const valid: DocumentCheck = { ok: true, problems: [], warnings: [], machine: null, problemStates: {}, problemTransitions: {}, warningStates: {} };
const invalid: DocumentCheck = { ok: false, problems: [{ path: "workflow.name", line: 2, column: 9, message: "must not be empty" }], warnings: [], machine: null, problemStates: {}, problemTransitions: {}, warningStates: {} };
const warned: DocumentCheck = { ...valid, warnings: [{ path: "workflow.state_machine", line: 8, column: 3, message: "final_states not given: inferred as done" }] };

describe("documentVerdict", () => {
  it("says valid or invalid only for the exact text that was checked", () => {
    expect(documentVerdict("a", { text: "a", check: valid })).toEqual({ kind: "valid", check: valid });
    expect(documentVerdict("a", { text: "a", check: invalid })).toEqual({ kind: "invalid", check: invalid });
  });

  it("a valid document with warnings is still valid; warnings do not make a valid verdict out of problems either", () => {
    expect(documentVerdict("a", { text: "a", check: warned })).toEqual({ kind: "valid", check: warned });
    const invalidWarned = { ...invalid, warnings: warned.warnings };
    expect(documentVerdict("a", { text: "a", check: invalidWarned })).toEqual({ kind: "invalid", check: invalidWarned });
  });

  it("is checking while the text on screen differs from the checked text, whatever the old answer was", () => {
    expect(documentVerdict("ab", { text: "a", check: valid })).toEqual({ kind: "checking" });
    expect(documentVerdict("ab", { text: "a", error: "HTTP 431" })).toEqual({ kind: "checking" });
    expect(documentVerdict("a", null)).toEqual({ kind: "checking" });
  });

  it("reports a failed check as unavailable, never as valid", () => {
    expect(documentVerdict("a", { text: "a", error: "Request Header Fields Too Large" })).toEqual({ kind: "unavailable", message: "Request Header Fields Too Large" });
  });

  it("has nothing to say about an empty document (still loading)", () => {
    expect(documentVerdict("", { text: "", check: valid })).toEqual({ kind: "empty" });
  });
});
