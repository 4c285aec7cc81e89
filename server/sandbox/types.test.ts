import { describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_LIMITS, resolveLimits } from "./types";

describe("resolveLimits", () => {
  it("keeps the default for every limit not given, including ones given as undefined", () => {
    expect(resolveLimits({ wallClockMs: undefined, memoryMb: 128 })).toEqual({ ...DEFAULT_SANDBOX_LIMITS, memoryMb: 128 });
    expect(resolveLimits(undefined)).toEqual(DEFAULT_SANDBOX_LIMITS);
  });
});

describe("resolveLimits and the wall clock", () => {
  it("keeps a default CPU limit within a shorter wall clock, and an explicit one as given", () => {
    expect(resolveLimits({ wallClockMs: 1_000 }).cpuMs).toBe(1_000);
    expect(resolveLimits({ wallClockMs: 1_000, cpuMs: 800 }).cpuMs).toBe(800);
    expect(resolveLimits({ wallClockMs: 60_000 }).cpuMs).toBe(DEFAULT_SANDBOX_LIMITS.cpuMs);
  });
});
