/**
 * The Metrics page's time ranges and their buckets. Buckets are UTC hours or days named by the
 * first characters of an ISO 8601 timestamp ("2026-11-26T09", "2026-11-26"), so SQL on both
 * databases can compute the same name from a stored timestamp (see insights-sql.ts).
 */
export const INSIGHT_RANGES = ["24h", "7d", "30d"] as const;
export type InsightRange = (typeof INSIGHT_RANGES)[number];

export type BucketUnit = "hour" | "day";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const RANGE_SHAPE: Record<InsightRange, { unit: BucketUnit; count: number }> = {
  "24h": { unit: "hour", count: 24 },
  "7d": { unit: "day", count: 7 },
  "30d": { unit: "day", count: 30 },
};

/** How many characters of an ISO timestamp name a bucket of each unit. */
export const BUCKET_KEY_LENGTH: Record<BucketUnit, number> = { hour: 13, day: 10 };

export interface TimeWindow {
  readonly range: InsightRange;
  readonly unit: BucketUnit;
  /** Inclusive start: the start of the oldest bucket. */
  readonly from: Date;
  /** Exclusive end: the end of the bucket holding `now`. */
  readonly to: Date;
  /** Bucket names, oldest first; every one is present even when nothing happened in it. */
  readonly buckets: readonly string[];
}

export function bucketKeyOf(date: Date, unit: BucketUnit): string {
  return date.toISOString().slice(0, BUCKET_KEY_LENGTH[unit]);
}

/** The window of `range` ending with the bucket that holds `now` (so the current hour or day is the last bar). */
export function timeWindow(range: InsightRange, now: Date): TimeWindow {
  const { unit, count } = RANGE_SHAPE[range];
  const size = unit === "hour" ? HOUR_MS : DAY_MS;
  const currentStart = Math.floor(now.getTime() / size) * size;
  const from = new Date(currentStart - (count - 1) * size);
  const to = new Date(currentStart + size);
  const buckets = Array.from({ length: count }, (_, index) => bucketKeyOf(new Date(from.getTime() + index * size), unit));
  return { range, unit, from, to, buckets };
}

/**
 * One entry per bucket of the window, in order, with the rows that fell in it merged by `merge`
 * into `empty()`; rows naming a bucket outside the window are ignored.
 */
export function fillBuckets<Row extends { bucket: string }, Value>(window: TimeWindow, rows: readonly Row[], empty: () => Value, merge: (value: Value, row: Row) => Value): { bucket: string; value: Value }[] {
  const values = new Map(window.buckets.map((bucket) => [bucket, empty()]));
  for (const row of rows) {
    const value = values.get(row.bucket);
    if (value !== undefined) values.set(row.bucket, merge(value, row));
  }
  return window.buckets.map((bucket) => ({ bucket, value: values.get(bucket)! }));
}
