import { describe, expect, it } from "vitest";
import { readVariablesText, variablesText } from "./variables-text";

describe("case form variables text", () => {
  it("round-trips variables and reads blank as none", () => {
    expect(readVariablesText(variablesText({ language: "python", retries: 2, strict: true }))).toEqual({ ok: true, variables: { language: "python", retries: 2, strict: true } });
    expect(variablesText(null)).toBe("");
    expect(readVariablesText("  ")).toEqual({ ok: true });
  });

  it("refuses what is not a flat object of text, numbers and booleans", () => {
    expect(readVariablesText("[1]")).toMatchObject({ ok: false });
    expect(readVariablesText("{bad json")).toMatchObject({ ok: false });
    expect(readVariablesText('{"a": {"b": 1}}')).toEqual({ ok: false, problem: "a must be text, a number or true/false" });
  });
});
