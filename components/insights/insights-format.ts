import type { BucketUnit } from "@/server/services/insights/time-window";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A bucket's axis label: "09:00" for an hour, "26 Nov" for a day (both UTC, as the buckets are). */
export function formatBucket(bucket: string, unit: BucketUnit): string {
  if (unit === "hour") return `${bucket.slice(11, 13)}:00`;
  const month = MONTHS[Number(bucket.slice(5, 7)) - 1] ?? bucket.slice(5, 7);
  return `${Number(bucket.slice(8, 10))} ${month}`;
}

/** A share as a whole percentage ("67%"), or a dash when there is nothing to divide. */
export function formatPercent(share: number | null): string {
  return share === null ? "–" : `${Math.round(share * 100)}%`;
}

/** A wait in the largest unit that keeps it readable: "850 ms", "42 s", "12 min", "3.5 h", "2.1 d". */
export function formatWait(ms: number | null): string {
  if (ms === null) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / 86_400_000).toFixed(1)} d`;
}

/** "1 run", "3 runs": a count with its noun. */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
