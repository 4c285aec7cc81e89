import { describe, expect, it } from "vitest";
import { meanPassAtK, passAtK } from "./pass-at-k";

/** C(n, k) exactly, to check the stable product against the paper's definition itself. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/** 1 - C(n-c,k)/C(n,k) with exact integers, the ratio scaled to 15 digits before it becomes a float. */
function exactPassAtK(n: number, c: number, k: number): number {
  const scale = 10n ** 15n;
  return 1 - Number((binomial(n - c, k) * scale) / binomial(n, k)) / 1e15;
}

describe("pass@k (Codex paper's unbiased estimator)", () => {
  // Expected values from Python: 1 - math.comb(n-c, k) / math.comb(n, k).
  it.each([
    [10, 3, 1, 0.30000000000000004],
    [10, 3, 5, 0.9166666666666666],
    [200, 13, 10, 0.4975511147306061],
    [200, 13, 100, 0.9999194971988055],
    [5, 0, 1, 0],
    [5, 5, 3, 1],
    [20, 1, 10, 0.5],
    [3, 1, 2, 0.6666666666666667],
    [1000, 7, 50, 0.3024375700358424],
  ])("n=%i c=%i k=%i is %f, as Python's exact binomials give", (n, c, k, expected) => {
    expect(passAtK(n, c, k)).toBeCloseTo(expected, 12);
  });

  it("agrees with exact big-integer binomials over a grid of n, c, k", () => {
    for (const n of [1, 2, 7, 30, 120]) {
      for (let c = 0; c <= n; c += Math.max(1, Math.floor(n / 6))) {
        for (let k = 1; k <= n; k += Math.max(1, Math.floor(n / 5))) {
          expect(passAtK(n, c, k), `n=${n} c=${c} k=${k}`).toBeCloseTo(exactPassAtK(n, c, k), 12);
        }
      }
    }
  });

  it("pass@1 is the fraction that passed", () => {
    expect(passAtK(17, 5, 1)).toBeCloseTo(5 / 17, 14);
  });

  it("refuses impossible arguments with a message naming them", () => {
    expect(() => passAtK(3, 4, 1)).toThrow(/c <= n/);
    expect(() => passAtK(3, 1, 4)).toThrow(/k <= n/);
    expect(() => passAtK(3, 1, 0)).toThrow(/1 <= k/);
    expect(() => passAtK(3.5, 1, 1)).toThrow(/whole numbers/);
  });

  it("over a dataset: the mean of the cases with at least k samples", () => {
    expect(meanPassAtK([{ n: 3, c: 1 }, { n: 3, c: 0 }, { n: 1, c: 1 }], 2)).toBeCloseTo((2 / 3 + 0) / 2, 12);
    expect(meanPassAtK([{ n: 1, c: 1 }], 2)).toBeNull();
  });
});
