import { describe, expect, it } from "vitest";
import { formatTokensCompact, formatUsd } from "@/server/usage/format-usage";
import { countOf, formatBucket, formatPercent, formatWait } from "./insights-format";

describe("the Metrics page's number formats", () => {
  it("labels hour and day buckets", () => {
    expect(formatBucket("2026-11-26T09", "hour")).toBe("09:00");
    expect(formatBucket("2026-11-26", "day")).toBe("26 Nov");
    expect(formatBucket("2026-01-05", "day")).toBe("5 Jan");
  });

  it("shows dollars with decimals that keep small costs visible", () => {
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(12.5)).toBe("$12.50");
    expect(formatUsd(0.125)).toBe("$0.125");
    expect(formatUsd(0.0042)).toBe("$0.0042");
    expect(formatUsd(0.00001)).toBe("<$0.0001");
  });

  it("shows shares, waits and token counts", () => {
    expect(formatPercent(2 / 3)).toBe("67%");
    expect(formatPercent(null)).toBe("–");
    expect(formatWait(850)).toBe("850 ms");
    expect(formatWait(60_000)).toBe("1 min");
    expect(formatWait(180_000)).toBe("3 min");
    expect(formatWait(3_600_000)).toBe("1.0 h");
    expect(formatWait(2 * 86_400_000)).toBe("2.0 d");
    expect(formatWait(null)).toBe("–");
    expect(formatTokensCompact(950)).toBe("950");
    expect(formatTokensCompact(12_300)).toBe("12.3k");
    expect(formatTokensCompact(4_500_000)).toBe("4.5M");
  });

  it("counts with the noun's number", () => {
    expect(countOf(1, "run")).toBe("1 run");
    expect(countOf(0, "run")).toBe("0 runs");
    expect(countOf(2, "escalation")).toBe("2 escalations");
  });
});
