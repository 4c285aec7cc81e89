import { describe, expect, it } from "vitest";
import { bucketKeyOf, fillBuckets, timeWindow } from "./time-window";

describe("the Metrics page's time windows", () => {
  const now = new Date("2026-11-26T09:13:33.123Z");

  it("cuts the last 24 hours into hourly buckets ending with the current hour", () => {
    const window = timeWindow("24h", now);
    expect(window.unit).toBe("hour");
    expect(window.buckets).toHaveLength(24);
    expect(window.buckets[0]).toBe("2026-11-25T10");
    expect(window.buckets.at(-1)).toBe("2026-11-26T09");
    expect(window.from.toISOString()).toBe("2026-11-25T10:00:00.000Z");
    expect(window.to.toISOString()).toBe("2026-11-26T10:00:00.000Z");
  });

  it("cuts 7 and 30 days into UTC days, across a month's end", () => {
    const week = timeWindow("7d", new Date("2026-12-02T23:59:59.999Z"));
    expect(week.buckets).toEqual(["2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02"]);
    expect(week.to.toISOString()).toBe("2026-12-03T00:00:00.000Z");
    const month = timeWindow("30d", now);
    expect(month.buckets).toHaveLength(30);
    expect(month.buckets[0]).toBe("2026-10-28");
    expect(month.from.toISOString()).toBe("2026-10-28T00:00:00.000Z");
  });

  it("names a moment's bucket as the SQL does: the first characters of its ISO form", () => {
    expect(bucketKeyOf(new Date("2026-01-05T00:00:00.000Z"), "hour")).toBe("2026-01-05T00");
    expect(bucketKeyOf(new Date("2026-01-05T23:59:59.999Z"), "day")).toBe("2026-01-05");
  });

  it("fills every bucket, merges rows into theirs and ignores rows outside the window", () => {
    const window = timeWindow("7d", now);
    const filled = fillBuckets(
      window,
      [
        { bucket: "2026-11-26", n: 2 },
        { bucket: "2026-11-26", n: 3 },
        { bucket: "2026-11-21", n: 4 },
        { bucket: "2026-11-01", n: 100 },
      ],
      () => 0,
      (sum, row) => sum + row.n,
    );
    expect(filled.map((entry) => entry.value)).toEqual([0, 4, 0, 0, 0, 0, 5]);
    expect(filled.map((entry) => entry.bucket)).toEqual(window.buckets);
  });
});
