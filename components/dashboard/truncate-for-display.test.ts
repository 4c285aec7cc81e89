import { describe, expect, it } from "vitest";
import { truncateForDisplay } from "./truncate-for-display";

describe("truncateForDisplay", () => {
  it("keeps short text and folds whitespace onto one line", () => {
    expect(truncateForDisplay("Write a\n  parser", 40)).toBe("Write a parser");
  });

  it("cuts long text on a word boundary and marks the cut", () => {
    expect(truncateForDisplay("Write a tokenizer for arithmetic expressions", 20)).toBe("Write a tokenizer…");
  });

  it("cuts inside a word when no boundary is near", () => {
    expect(truncateForDisplay("a".repeat(30), 10)).toBe(`${"a".repeat(10)}…`);
  });
});
