import { describe, expect, it } from "vitest";
import { createAllowPolicy } from "./allow-policy";
import type { Finding } from "./finding";
import { formatFindings } from "./format-feedback";

const finding = (construct: string, line: number, rule = "eval-code"): Finding => ({ rule, construct, line, message: "" });

describe("formatFindings", () => {
  it("writes one line per construct", () => {
    expect(formatFindings([finding("os.system", 3, "spawn-process")])).toBe("Security: os.system forbidden (line 3)");
  });

  it("orders by severity, then line, and merges repeated constructs", () => {
    const text = formatFindings([finding("process.exit", 1, "exit-process"), finding("eval", 9), finding("fetch", 4, "network"), finding("eval", 2)]);
    expect(text.split("\n")).toEqual(["Security: eval forbidden (lines 2, 9)", "Security: fetch forbidden (line 4)", "Security: process.exit forbidden (line 1)"]);
  });

  it("caps the list", () => {
    const text = formatFindings(Array.from({ length: 13 }, (_, index) => finding(`c${index}`, index + 1)));
    expect(text.split("\n")).toHaveLength(11);
    expect(text.endsWith("Security: and 3 more forbidden constructs")).toBe(true);
  });
});

describe("createAllowPolicy", () => {
  const policy = createAllowPolicy({ allowModules: ["node:fs", "urllib"], allowCalls: ["process.env", "subprocess.run"] });

  it("allows modules with their submodules, ignoring node: prefixes", () => {
    expect(policy.moduleAllowed("fs")).toBe(true);
    expect(policy.moduleAllowed("node:fs/promises")).toBe(true);
    expect(policy.moduleAllowed("urllib.request")).toBe(true);
    expect(policy.moduleAllowed("fsx")).toBe(false);
  });

  it("allows calls with everything under them", () => {
    expect(policy.callAllowed("process.env")).toBe(true);
    expect(policy.callAllowed("process.env.HOME")).toBe(true);
    expect(policy.callAllowed("process.exit")).toBe(false);
    expect(policy.memberOfModuleAllowed("subprocess")).toBe(true);
    expect(policy.memberOfModuleAllowed("os")).toBe(false);
  });
});
