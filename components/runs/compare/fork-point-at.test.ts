import { describe, expect, it } from "vitest";
import { forkPointAt } from "./fork-point-at";

const original = { id: "r-1", forkedFrom: null };
const fork = { id: "r-2", forkedFrom: { runId: "r-1", attemptKey: "implement/attempt-2", feedback: "Move the key on get", prompt: null, forkedBy: "ada@example.com" } };

describe("forkPointAt", () => {
  it("marks the attempt a fork started from, on whichever side the fork is", () => {
    expect(forkPointAt("implement/attempt-2", { a: original, b: fork })).toEqual({ side: "B", edit: fork.forkedFrom });
    expect(forkPointAt("implement/attempt-2", { a: fork, b: original })).toEqual({ side: "A", edit: fork.forkedFrom });
  });

  it("nothing at other attempts, or when the fork's origin is a third run", () => {
    expect(forkPointAt("implement/attempt-1", { a: original, b: fork })).toBeUndefined();
    expect(forkPointAt("implement/attempt-2", { a: { id: "r-9", forkedFrom: null }, b: fork })).toBeUndefined();
  });
});
