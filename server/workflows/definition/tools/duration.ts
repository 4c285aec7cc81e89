import { MAX_WAIT_MS, MIN_WAIT_MS } from "../../../engine/policy/waiting";

/**
 * Durations as documents write them: a whole number and a unit, `90s`, `30m`, `24h`, `7d`.
 * Parsed with a fixed, anchored pattern of bounded length, so hostile text costs nothing.
 */
export interface DurationBounds {
  readonly minMs: number;
  readonly maxMs: number;
  /** How the bounds read in a message: "1s and 30d". */
  readonly shown: string;
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^([1-9][0-9]{0,6})(s|m|h|d)$/;

/** A waiting tool (person, workflow, external) waits 1 second to 30 days: the engine's bounds of a wait. */
export const WAIT_TIMEOUT_BOUNDS: DurationBounds = { minMs: MIN_WAIT_MS, maxMs: MAX_WAIT_MS, shown: "1s and 30d" };
/** A code tool's call runs 1 to 60 seconds of wall clock, sandbox start included. */
export const CODE_TIMEOUT_BOUNDS: DurationBounds = { minMs: 1_000, maxMs: 60_000, shown: "1s and 60s" };
export const DEFAULT_CODE_TOOL_TIMEOUT = "5s";

export function parseDuration(text: string, bounds: DurationBounds): { ok: true; ms: number } | { ok: false; message: string } {
  const match = text.length <= 16 ? DURATION.exec(text.trim()) : null;
  if (!match) return { ok: false, message: `${JSON.stringify(text.slice(0, 32))}: must be a duration such as 90s, 30m, 24h or 7d` };
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms < bounds.minMs || ms > bounds.maxMs) return { ok: false, message: `${text.trim()}: must be between ${bounds.shown}` };
  return { ok: true, ms };
}

/** A duration the validator accepted, in milliseconds. @throws RangeError for one it would have refused. */
export function durationMs(text: string, bounds: DurationBounds): number {
  const parsed = parseDuration(text, bounds);
  if (!parsed.ok) throw new RangeError(parsed.message);
  return parsed.ms;
}
