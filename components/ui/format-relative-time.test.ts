import { describe, expect, it } from "vitest";
import { formatRelativeTime } from "./format-relative-time";

const now = Date.parse("2026-01-10T12:00:00Z");
const ago = (seconds: number) => new Date(now - seconds * 1000);

describe("formatRelativeTime", () => {
  it.each([
    [10, "just now"],
    [50, "1 minute ago"],
    [5 * 60, "5 minutes ago"],
    [3 * 60 * 60, "3 hours ago"],
    [26 * 60 * 60, "yesterday"],
    [10 * 24 * 60 * 60, "last week"],
    [400 * 24 * 60 * 60, "last year"],
    [-2 * 60 * 60, "in 2 hours"],
  ])("%i seconds ago reads %s", (seconds, expected) => {
    expect(formatRelativeTime(ago(seconds), now)).toBe(expected);
  });
});
