import { describe, expect, it } from "vitest";
import { queueCommand } from "./queue-keys";

describe("queueCommand", () => {
  it("j/k move a clamped selection that starts at the first row", () => {
    expect(queueCommand("j", -1, 3, false)).toEqual({ kind: "select", index: 0 });
    expect(queueCommand("j", 0, 3, false)).toEqual({ kind: "select", index: 1 });
    expect(queueCommand("j", 2, 3, false)).toEqual({ kind: "select", index: 2 });
    expect(queueCommand("k", 2, 3, false)).toEqual({ kind: "select", index: 1 });
    expect(queueCommand("k", 0, 3, false)).toEqual({ kind: "select", index: 0 });
  });

  it("Enter, a and r act on the selected row only", () => {
    expect(queueCommand("Enter", 1, 3, false)).toEqual({ kind: "open", index: 1 });
    expect(queueCommand("a", 1, 3, false)).toEqual({ kind: "approve", index: 1 });
    expect(queueCommand("r", 2, 3, false)).toEqual({ kind: "reject", index: 2 });
    expect(queueCommand("a", -1, 3, false)).toBeNull();
  });

  it("keeps the selection inside a list that shrank", () => {
    expect(queueCommand("a", 5, 2, false)).toEqual({ kind: "approve", index: 1 });
  });

  it("ignores modified keys, other keys and empty lists", () => {
    expect(queueCommand("a", 0, 3, true)).toBeNull();
    expect(queueCommand("x", 0, 3, false)).toBeNull();
    expect(queueCommand("j", 0, 0, false)).toBeNull();
  });
});
