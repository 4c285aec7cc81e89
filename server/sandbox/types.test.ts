import { describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_LIMITS, resolveLimits } from "./types";

describe("resolveLimits", () => {
  it("keeps the default for every limit not given, including ones given as undefined", () => {
    expect(resolveLimits({ wallClockMs: undefined, memoryMb: 128 })).toEqual({ ...DEFAULT_SANDBOX_LIMITS, memoryMb: 128 });
    expect(resolveLimits(undefined)).toEqual(DEFAULT_SANDBOX_LIMITS);
  });
});
