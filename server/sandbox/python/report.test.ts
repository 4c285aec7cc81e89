import { describe, expect, it } from "vitest";
import { parseReport } from "./report";

const NONCE = "0123456789abcdef0123456789abcdef";
const line = (fields: Record<string, unknown>) => JSON.stringify({ nonce: NONCE, limit: null, message: null, tests: [], ...fields });

describe("parseReport", () => {
  it("reads the runner's line", () => {
    const report = parseReport(line({ status: "failed", tests: [{ name: "test_a", passed: false, message: "boom" }, { name: "test_b", passed: true, message: null }] }) + "\n", NONCE);
    expect(report).toEqual({ status: "failed", limit: null, message: null, tests: [{ name: "test_a", passed: false, message: "boom" }, { name: "test_b", passed: true }] });
  });

  it("ignores lines without this run's nonce, and junk", () => {
    const forged = JSON.stringify({ nonce: "f".repeat(32), status: "passed", tests: [] });
    expect(parseReport(`${forged}\nnot json\n`, NONCE)).toBeNull();
    expect(parseReport(`garbage\n${line({ status: "passed" })}\n`, NONCE)?.status).toBe("passed");
    expect(parseReport("", NONCE)).toBeNull();
  });

  it("rejects a line corrupted by writes into the middle of it", () => {
    const real = line({ status: "passed" });
    expect(parseReport(`${real.slice(0, 20)}XX${real.slice(20)}\n`, NONCE)).toBeNull();
  });

  it("rejects unknown statuses, limit reports without a known limit, and malformed tests", () => {
    expect(parseReport(line({ status: "great" }), NONCE)).toBeNull();
    expect(parseReport(line({ status: "limit", limit: "moon" }), NONCE)).toBeNull();
    expect(parseReport(line({ status: "limit", limit: "memory", message: "m" }), NONCE)).toMatchObject({ status: "limit", limit: "memory" });
    expect(parseReport(line({ status: "passed", tests: [{ name: 1, passed: true }] }), NONCE)).toBeNull();
  });
});
