import { describe, expect, it } from "vitest";
import { parseGuardSpec } from "./guard-spec";

describe("a guard's sandbox limits: only values both sandboxes can honour", () => {
  it.each([
    [{ memory_mb: 3 }, /^guard\.limits\.memory_mb: must be between 4 and 2032 MB/],
    [{ memory_mb: 2033 }, /^guard\.limits\.memory_mb: must be between 4 and 2032 MB \(the JavaScript sandbox's WebAssembly memory/],
    [{ memory_mb: 4096 }, /^guard\.limits\.memory_mb: must be between 4 and 2032/],
    [{ wall_clock_ms: 50 }, /^guard\.limits\.wall_clock_ms: must be between 100 and 600000 ms/],
    [{ wall_clock_ms: 1.5 }, /^guard\.limits\.wall_clock_ms: must be a whole number/],
    [{ cpu_ms: 6_000 }, /^guard\.limits\.cpu_ms: must be at most the default wall_clock_ms of 5000/],
    [{ cpu_ms: 3_000, wall_clock_ms: 2_000 }, /^guard\.limits\.cpu_ms: must be at most wall_clock_ms \(2000\)/],
    [{ output_bytes: 0 }, /^guard\.limits\.output_bytes: must be between 1 and 16777216 bytes/],
  ])("rejects %j, naming the field and the allowed range", (limits, message) => {
    expect(() => parseGuardSpec({ kind: "test", language: "python", test: "assert True", limits })).toThrow(message);
  });

  it.each([[{ memory_mb: 4 }], [{ memory_mb: 2032 }], [{ cpu_ms: 2_000, wall_clock_ms: 2_000 }], [{ wall_clock_ms: 600_000, cpu_ms: 600_000 }], [{ output_bytes: 16 * 1024 * 1024 }]])("accepts %j", (limits) => {
    expect(() => parseGuardSpec({ kind: "tdd", language: "javascript", limits })).not.toThrow();
  });
});
