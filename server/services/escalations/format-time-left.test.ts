import { describe, expect, it } from "vitest";
import { formatTimeLeft } from "./format-time-left";

const now = Date.parse("2026-11-24T12:00:00Z");
const inMs = (ms: number) => new Date(now + ms);

describe("formatTimeLeft", () => {
  it("reads seconds, minutes, hours and days, and flags the last hour", () => {
    expect(formatTimeLeft(inMs(30_500), now)).toEqual({ text: "31 s left", urgency: "soon" });
    expect(formatTimeLeft(inMs(59 * 60_000 + 59_000), now)).toEqual({ text: "59 min left", urgency: "soon" });
    expect(formatTimeLeft(inMs(3 * 3_600_000 + 5 * 60_000), now)).toEqual({ text: "3 h 5 min left", urgency: "ok" });
    expect(formatTimeLeft(inMs(72 * 3_600_000), now)).toEqual({ text: "3 d 0 h left", urgency: "ok" });
  });

  it("says expired at and after the deadline, and no deadline without one", () => {
    expect(formatTimeLeft(inMs(0), now).urgency).toBe("expired");
    expect(formatTimeLeft(inMs(-5_000), now).text).toBe("expired");
    expect(formatTimeLeft(null, now)).toEqual({ text: "no deadline", urgency: "none" });
  });
});
