/** How long a reviewer has left before an escalation expires, as a person reads it. */
export function formatTimeLeft(expiresAt: Date | null, now: number): { text: string; urgency: "none" | "ok" | "soon" | "expired" } {
  if (!expiresAt) return { text: "no deadline", urgency: "none" };
  const ms = new Date(expiresAt).getTime() - now;
  if (ms <= 0) return { text: "expired", urgency: "expired" };
  const minutes = Math.floor(ms / 60_000);
  const urgency = ms < 60 * 60_000 ? "soon" : "ok";
  if (ms < 60_000) return { text: `${Math.ceil(ms / 1000)} s left`, urgency };
  if (minutes < 60) return { text: `${minutes} min left`, urgency };
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return { text: `${hours} h ${minutes % 60} min left`, urgency };
  return { text: `${Math.floor(hours / 24)} d ${hours % 24} h left`, urgency };
}
