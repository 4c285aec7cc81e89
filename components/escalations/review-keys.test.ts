import { describe, expect, it } from "vitest";
import { REVIEW_SHORTCUTS, reviewCommand, type ReviewKeyContext } from "./review-keys";

const reviewer: ReviewKeyContext = { mayDecide: true, editAllowed: true, mayClaim: true };
const viewer: ReviewKeyContext = { mayDecide: false, editAllowed: true, mayClaim: false };

describe("reviewCommand", () => {
  it("maps a, r, e, n, j, c and ? for a reviewer on a pending escalation", () => {
    expect(["a", "r", "e", "n", "j", "c", "?"].map((key) => reviewCommand(key, false, reviewer))).toEqual(["approve", "reject", "edit", "next", "next", "claim", "help"]);
  });

  it("gives a viewer (or a decided escalation) only next and help", () => {
    expect(["a", "r", "e", "c"].map((key) => reviewCommand(key, false, viewer))).toEqual([null, null, null, null]);
    expect(reviewCommand("n", false, viewer)).toBe("next");
    expect(reviewCommand("?", false, viewer)).toBe("help");
  });

  it("offers no edit where edits are not possible, and no claim for what one holds already", () => {
    expect(reviewCommand("e", false, { ...reviewer, editAllowed: false })).toBeNull();
    expect(reviewCommand("c", false, { ...reviewer, mayClaim: false })).toBeNull();
    expect(reviewCommand("a", false, { ...reviewer, mayClaim: false })).toBe("approve");
  });

  it("ignores modified keys, capitals and other keys", () => {
    expect(reviewCommand("a", true, reviewer)).toBeNull();
    expect(reviewCommand("A", false, reviewer)).toBeNull();
    expect(reviewCommand("x", false, reviewer)).toBeNull();
    expect(reviewCommand("Enter", false, reviewer)).toBeNull();
  });

  it("lists every command once in the help, each key once", () => {
    const keys = REVIEW_SHORTCUTS.flatMap((shortcut) => shortcut.keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(REVIEW_SHORTCUTS.map((shortcut) => shortcut.command)).size).toBe(REVIEW_SHORTCUTS.length);
  });
});
