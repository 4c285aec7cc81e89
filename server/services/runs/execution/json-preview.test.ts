import { describe, expect, it } from "vitest";
import { previewJson, reportCommand, resultExample, shellQuote } from "./json-preview";
import { describeDeliverable } from "./turn-records";

describe("what the run page and the CLI show of tool inputs, results and turns", () => {
  it("cuts a long JSON value at the preview's length and says so", () => {
    expect(previewJson({ a: 1 })).toEqual({ text: '{\n  "a": 1\n}', truncated: false });
    const long = previewJson({ text: "x".repeat(5_000) }, 100);
    expect(long.truncated).toBe(true);
    expect(long.text).toHaveLength(101);
  });

  it("shapes a --result example like the result schema: required fields first, each at its type's empty value", () => {
    expect(resultExample(null)).toBe("{}");
    expect(resultExample({ type: "string" })).toBe("{}");
    expect(resultExample({ type: "object", properties: { note: { type: "string" }, count: { type: "integer" }, ok: { type: "boolean" }, mode: { enum: ["fast", "slow"] }, tags: { type: "array" } }, required: ["ok"] })).toBe(
      '{"ok":false,"note":"","count":0,"mode":"fast","tags":[]}',
    );
    // Deep or wide schemas stay bounded.
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 50; i++) deep = { type: "object", properties: { inner: deep } };
    expect(resultExample(deep)).toBe('{"inner":{"inner":{"inner":{"inner":{}}}}}');
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, { type: "number" }])) };
    expect(Object.keys(JSON.parse(resultExample(wide)) as object)).toHaveLength(20);
  });

  it("quotes the command's words for a shell, a single quote included", () => {
    expect(shellQuote("run-1")).toBe("run-1");
    expect(shellQuote(`{"note":"it's"}`)).toBe(`'{"note":"it'\\''s"}'`);
    expect(reportCommand("r1", "c1", "{}")).toBe("npx dualstate runs report r1 c1 --result '{}'");
  });

  it("says what a turn delivered: final artifacts with their hashes, the calls a suspended turn waits for, else the reason", () => {
    expect(describeDeliverable("succeeded", null, { artifacts: { g_impl: "a".repeat(64), g_test: "b".repeat(64) } })).toBe("artifacts g_impl (aaaaaaaaaaaa), g_test (bbbbbbbbbbbb)");
    expect(describeDeliverable("succeeded", null, { artifacts: [{ name: "impl.py", hash: "c".repeat(64) }] })).toBe("artifacts impl.py (cccccccccccc)");
    expect(describeDeliverable("succeeded", null, null)).toBe("no artifacts");
    expect(describeDeliverable("suspended", "waiting for ask (person)", { calls: ["ask"] })).toBe("waiting for ask (person)");
    expect(describeDeliverable("suspended", null, { calls: ["ask"] })).toBe("waits for call ask");
    expect(describeDeliverable("suspended", null, { callIds: ["c1"] })).toBe("waits for call c1");
    expect(describeDeliverable("suspended", null, { escalationId: "e1" })).toBe("waits for escalation e1");
    expect(describeDeliverable("failed", "guard g_impl exhausted", { reason: "other" })).toBe("guard g_impl exhausted");
    expect(describeDeliverable("lost", null, { reason: "lease expired" })).toBe("lease expired");
    expect(describeDeliverable("suspended", null, { callIds: Array.from({ length: 30 }, (_, i) => `c${i}`) })).toMatch(/^waits for 30 calls c0, .*, c9 and 20 more$/);
    expect(describeDeliverable("failed", "x".repeat(1_000), null)).toHaveLength(301);
  });
});
