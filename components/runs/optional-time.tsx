import { RelativeTime } from "@/components/ui/relative-time";

/** A relative time, or a dash when there is none. */
export function OptionalTime({ date }: { date: Date | null }) {
  return date ? <RelativeTime date={date} /> : <span className="text-slate-400">—</span>;
}
