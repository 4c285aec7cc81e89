"use client";

import { useEffect, useState } from "react";
import { formatRelativeTime } from "./format-relative-time";

const REFRESH_MS = 30_000;

/** A <time> that reads "5 minutes ago" and keeps itself current; the exact time is in its tooltip. */
export function RelativeTime({ date }: { date: Date }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    // The server's clock and the browser's differ by the page's load time, so the text may too.
    <time dateTime={date.toISOString()} title={date.toLocaleString()} suppressHydrationWarning>
      {formatRelativeTime(date, now)}
    </time>
  );
}
