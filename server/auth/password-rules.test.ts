import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-rules";

describe("passwordProblem", () => {
  it.each([
    ["short", "must be at least 12 characters"],
    ["x".repeat(201), "must be at most 200 characters"],
    ["aaaaaaaaaaaaaaaa", "must use at least 4 different characters"],
    ["abababababab", "must use at least 4 different characters"],
  ])("refuses %s", (password, problem) => {
    expect(passwordProblem(password)).toBe(problem);
  });

  it("refuses the owner's own email address, whatever its case", () => {
    expect(passwordProblem("Ada.Lovelace@Example.com", { email: "ada.lovelace@example.com" })).toBe("must not be the email address");
  });

  it("accepts twelve varied characters and long passphrases", () => {
    expect(passwordProblem("correct horse")).toBeNull();
    expect(passwordProblem("x".repeat(150) + "abcd")).toBeNull();
  });
});
