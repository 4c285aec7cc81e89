import { describe, expect, it } from "vitest";
import { pairAttempts } from "./pair-attempts";

const attempts = (...keys: string[]) => keys.map((key) => ({ stepName: key.split("/")[0]!, attempt: Number(key.split("/")[1]), label: key }));
const view = (pairs: ReturnType<typeof pairAttempts<ReturnType<typeof attempts>[number]>>) => pairs.map((pair) => `${pair.key}: ${pair.a ? "a" : "-"}${pair.b ? "b" : "-"}`);

describe("pairAttempts", () => {
  it("faces the same attempt of the same step in both runs", () => {
    expect(view(pairAttempts(attempts("write_tests/1", "implement/1", "implement/2"), attempts("write_tests/1", "implement/1", "implement/2")))).toEqual([
      "write_tests/attempt-1: ab",
      "implement/attempt-1: ab",
      "implement/attempt-2: ab",
    ]);
  });

  it("places attempts only one run made after their step's last, and steps only b reached at the end", () => {
    expect(view(pairAttempts(attempts("write_tests/1", "implement/1", "review/1"), attempts("write_tests/1", "implement/1", "implement/2", "implement/3", "deploy/1")))).toEqual([
      "write_tests/attempt-1: ab",
      "implement/attempt-1: ab",
      "implement/attempt-2: -b",
      "implement/attempt-3: -b",
      "review/attempt-1: a-",
      "deploy/attempt-1: -b",
    ]);
  });

  it("tells repeated attempt numbers of a step apart by occurrence (a revisited state)", () => {
    expect(view(pairAttempts(attempts("implement/1", "implement/1"), attempts("implement/1")))).toEqual(["implement/attempt-1: ab", "implement/attempt-1#2: a-"]);
  });
});
