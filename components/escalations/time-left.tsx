"use client";

import { useEffect, useState } from "react";
import { formatTimeLeft } from "@/server/services/escalations/format-time-left";

const URGENCY_CLASS = { none: "text-slate-400", ok: "text-slate-700", soon: "font-medium text-amber-700", expired: "font-medium text-red-700" } as const;

/** An escalation's deadline as time left, ticking; the exact deadline is in the tooltip. */
export function TimeLeft({ expiresAt }: { expiresAt: Date | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const { text, urgency } = formatTimeLeft(expiresAt, now);
  return (
    <span className={`tabular-nums ${URGENCY_CLASS[urgency]}`} title={expiresAt ? `Expires ${new Date(expiresAt).toLocaleString()}` : undefined} suppressHydrationWarning data-testid="time-left">
      {text}
    </span>
  );
}
