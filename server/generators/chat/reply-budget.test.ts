import { describe, expect, it } from "vitest";
import { cutUtf8, ReplyBudget } from "./reply-budget";

describe("reply budget", () => {
  it("keeps whole pieces while they fit, then a prefix, then nothing", () => {
    const budget = new ReplyBudget(10);
    expect(budget.take("abcd")).toBe("abcd");
    expect(budget.exceeded).toBe(false);
    expect(budget.take("efghijkl")).toBe("efghij");
    expect(budget.exceeded).toBe(true);
    expect(budget.take("more")).toBe("");
  });

  it("is not exceeded by a reply of exactly the budget", () => {
    const budget = new ReplyBudget(3);
    expect(budget.take("abc")).toBe("abc");
    expect(budget.exceeded).toBe(false);
  });

  it("cuts at UTF-8 character boundaries: 2-, 3- and 4-byte characters are kept whole or dropped", () => {
    expect(cutUtf8("aé", 2)).toBe("a");
    expect(cutUtf8("aé", 3)).toBe("aé");
    expect(cutUtf8("a€b", 3)).toBe("a");
    expect(cutUtf8("a🙂b", 4)).toBe("a");
    expect(cutUtf8("a🙂b", 5)).toBe("a🙂");
    expect(cutUtf8("abc", 0)).toBe("");
  });
});
