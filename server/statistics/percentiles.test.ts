import { describe, expect, it } from "vitest";
import { percentile } from "./percentiles";

describe("nearest-rank percentiles", () => {
  it("picks the value at rank ceil(p·n), whatever the input order", () => {
    const values = [9, 1, 8, 2, 7, 3, 6, 4, 5, 10];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 95)).toBe(10);
    expect(percentile(values, 90)).toBe(9);
    expect(percentile(values, 10)).toBe(1);
    expect(percentile(values, 100)).toBe(10);
  });

  it("gives the only value of a one-value sample and null for an empty one", () => {
    expect(percentile([42], 50)).toBe(42);
    expect(percentile([42], 95)).toBe(42);
    expect(percentile([], 50)).toBeNull();
  });

  it("p95 of 20 values is the 19th smallest, p50 of an odd count the middle one", () => {
    const twenty = Array.from({ length: 20 }, (_, i) => (i + 1) * 1000);
    expect(percentile(twenty, 95)).toBe(19_000);
    expect(percentile([3, 1, 2], 50)).toBe(2);
  });

  it("does not reorder the caller's array and refuses a percentile outside (0, 100]", () => {
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
    expect(() => percentile(values, 0)).toThrow(RangeError);
    expect(() => percentile(values, 101)).toThrow(RangeError);
  });
});
