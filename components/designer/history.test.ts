import { describe, expect, it } from "vitest";
import { canRedo, canUndo, record, redo, startHistory, undo } from "./history";

describe("history", () => {
  it("undoes and redoes one step per change", () => {
    let history = record(record(startHistory("a"), "b"), "c");
    expect(canUndo(history)).toBe(true);
    history = undo(history);
    expect(history.present).toBe("b");
    history = undo(history);
    expect(history.present).toBe("a");
    expect(canUndo(history)).toBe(false);
    expect(undo(history)).toBe(history);
    history = redo(history);
    expect(history.present).toBe("b");
    expect(canRedo(history)).toBe(true);
  });

  it("drops the redo branch on a new change", () => {
    const history = record(undo(record(startHistory(1), 2)), 3);
    expect(history.present).toBe(3);
    expect(canRedo(history)).toBe(false);
    expect(redo(history)).toBe(history);
  });

  it("folds changes of one group into one step, and a different group starts another", () => {
    let history = record(startHistory("x"), "xa", "task");
    history = record(history, "xab", "task");
    history = record(history, "xab!", "model");
    expect(history.past).toEqual(["x", "xab"]);
    expect(undo(undo(history)).present).toBe("x");
  });

  it("does not fold a change after an undo into the earlier group", () => {
    let history = record(record(startHistory("x"), "xa", "task"), "xb");
    history = record(undo(history), "xac", "task");
    expect(history.past).toEqual(["x", "xa"]);
  });

  it("ignores a change to the same value", () => {
    const history = startHistory("same");
    expect(record(history, "same")).toBe(history);
  });
});
