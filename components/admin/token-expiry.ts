import { formatRelativeTime } from "@/components/ui/format-relative-time";

/** The expiries offered when creating a token; "date" lets the admin pick a day (at most a year ahead, like the server's rule). */
export const EXPIRY_CHOICES = [
  { value: "7", label: "in 7 days" },
  { value: "30", label: "in 30 days" },
  { value: "90", label: "in 90 days" },
  { value: "365", label: "in a year" },
  { value: "date", label: "on a date…" },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]["value"];
export const DEFAULT_EXPIRY: ExpiryChoice = "30";
const DAY_MS = 24 * 60 * 60 * 1000;

/** When a token made now with this choice expires: N days from now, or the end of the chosen local day. */
export function expiryFrom(choice: ExpiryChoice, day: string, now: Date): Date | null {
  if (choice !== "date") return new Date(now.getTime() + Number(choice) * DAY_MS);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59);
}

export type TokenState = "revoked" | "expired" | "active" | "no expiry";

/** A token's state and how the list says it: "expires in 3 days", "expired yesterday". */
export function tokenStatus(token: { revokedAt: Date | null; expiresAt: Date | null }, now: number): { state: TokenState; text: string } {
  if (token.revokedAt) return { state: "revoked", text: "revoked" };
  if (!token.expiresAt) return { state: "no expiry", text: "never expires (made before tokens had to)" };
  if (token.expiresAt.getTime() <= now) return { state: "expired", text: `expired ${formatRelativeTime(token.expiresAt, now)}` };
  return { state: "active", text: `expires ${formatRelativeTime(token.expiresAt, now)}` };
}
