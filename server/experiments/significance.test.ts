import { describe, expect, it } from "vitest";
import { meanDifferenceTest, normalCdf, twoProportionTest, wilsonInterval } from "./significance";

describe("the noise tests", () => {
  it("normal CDF matches tabulated values", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 6);
  });

  it("Wilson intervals match scipy's binomtest(...).proportion_ci(method='wilson')", () => {
    const eight = wilsonInterval(8, 10)!;
    expect(eight.low).toBeCloseTo(0.4901624715366418, 6);
    expect(eight.high).toBeCloseTo(0.9433178485456248, 6);
    const none = wilsonInterval(0, 20)!;
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.16112515805281935, 6);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it("two-proportion z-test: p-values as computed by hand in Python (erfc(|z|/√2))", () => {
    const drop = twoProportionTest({ successes: 45, trials: 60 }, { successes: 30, trials: 60 }, "the pass rate");
    expect(drop.delta).toBeCloseTo(-0.25, 12);
    expect(drop.pValue).toBeCloseTo(0.004677734981047271, 6);
    expect(drop.exceedsNoise).toBe(true);
    expect(drop.statement).toBe("The pass rate 75.0% → 50.0%: exceeds noise for 60 and 60 samples (two-proportion z-test, p = 0.005 < 0.05).");

    const small = twoProportionTest({ successes: 50, trials: 100 }, { successes: 55, trials: 100 });
    expect(small.pValue).toBeCloseTo(0.4789500234203581, 6);
    expect(small.exceedsNoise).toBe(false);
    expect(small.statement).toMatch(/within noise for 100 and 100 samples/);
  });

  it("says when there is nothing to test", () => {
    expect(twoProportionTest({ successes: 0, trials: 0 }, { successes: 1, trials: 2 }).pValue).toBeNull();
    const same = twoProportionTest({ successes: 5, trials: 5 }, { successes: 3, trials: 3 }, "the pass rate");
    expect(same).toMatchObject({ pValue: null, exceedsNoise: false });
    expect(same.statement).toMatch(/No difference/);
  });

  it("mean differences: a large shift with small spread exceeds noise, overlapping samples do not", () => {
    const shifted = meanDifferenceTest([1, 1.1, 0.9, 1, 1.05], [2, 2.1, 1.9, 2, 2.05], "the cost per sample", (value) => value.toFixed(2));
    expect(shifted.delta).toBeCloseTo(1, 12);
    expect(shifted.exceedsNoise).toBe(true);
    const overlapping = meanDifferenceTest([1, 3, 2, 5, 1], [2, 1, 4, 2, 3], "the cost per sample", (value) => value.toFixed(2));
    expect(overlapping.exceedsNoise).toBe(false);
  });

});
