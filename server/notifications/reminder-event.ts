/**
 * The outbox event names of escalation emails: "created" when an escalation arrives, and
 * "reminder:<hours>h" for a reminder that many hours before its deadline.
 */
export const CREATED_EVENT = "created";

export function reminderEvent(hoursBefore: number): string {
  return `reminder:${hoursBefore}h`;
}

/** The hours before the deadline a reminder event is for, or null for any other event. */
export function reminderHoursOf(event: string): number | null {
  const match = /^reminder:(\d+(?:\.\d+)?)h$/.exec(event);
  return match ? Number(match[1]) : null;
}

/** The most reminder points a deployment may set, and the furthest before a deadline one may be. */
export const MAX_REMINDERS = 5;
export const MAX_REMINDER_HOURS = 24 * 365;

/** `DUALSTATE_REMINDER_HOURS` ("24, 2", or "none") as distinct points, latest first; throws naming the bad entry. */
export function parseReminderHours(text: string): number[] {
  if (text.trim().toLowerCase() === "none") return [];
  const points = text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  if (points.length > MAX_REMINDERS) throw new Error(`lists ${points.length} reminders; at most ${MAX_REMINDERS}`);
  const hours = points.map((entry) => {
    const value = Number(entry);
    if (!/^\d+(?:\.\d+)?$/.test(entry) || !(value > 0) || value > MAX_REMINDER_HOURS) throw new Error(`"${entry}" is not a number of hours between 0 and ${MAX_REMINDER_HOURS}`);
    return value;
  });
  return [...new Set(hours)].sort((a, b) => b - a);
}

/** What every hand-off event starts with (the queues' SQL compares events with it). */
export const HANDOFF_EVENT_PREFIX = "handoff:";

/** The outbox event of an escalation handed to `group` (a backup, or at the deadline): once per escalation and group. */
export function handoffEvent(group: string): string {
  return `${HANDOFF_EVENT_PREFIX}${group}`;
}

/** The group a hand-off event is for, or null for any other event. */
export function handoffGroupOf(event: string): string | null {
  return event.startsWith(HANDOFF_EVENT_PREFIX) && event.length > HANDOFF_EVENT_PREFIX.length ? event.slice(HANDOFF_EVENT_PREFIX.length) : null;
}
