import { describe, expect, it } from "vitest";
import { checkResultSchema } from "./check-result-schema";

describe("checkResultSchema", () => {
  it("accepts any object without a schema, and names each field at fault with one", async () => {
    await expect(checkResultSchema("result", null, { anything: [1] }, "c1")).resolves.toBeUndefined();
    const schema = { type: "object", properties: { items: { type: "array", items: { type: "integer" } } }, required: ["items"] };
    await expect(checkResultSchema("result", schema, { items: [1, "two"] }, "c1")).rejects.toThrow("result.items[1]: must be integer");
    await expect(checkResultSchema("answer", schema, {}, "c1")).rejects.toThrow("answer.items: is required");
  });

  it("keeps schemas that share an $id apart", async () => {
    const first = { $id: "https://example.test/answer", type: "object", required: ["a"] };
    const second = { $id: "https://example.test/answer", type: "object", required: ["b"] };
    await expect(checkResultSchema("answer", first, { a: 1 }, "c1")).resolves.toBeUndefined();
    await expect(checkResultSchema("answer", second, { a: 1 }, "c2")).rejects.toThrow("answer.b: is required");
  });

  it("says the workflow's tool must be fixed when a stored schema cannot be used", async () => {
    await expect(checkResultSchema("result", { type: "object", properties: { a: { type: "string", pattern: "(?=x)" } } }, {}, "c3")).rejects.toThrow(/Tool call c3: its result schema cannot be used .*RE2.*; the workflow's tool must be fixed/);
    await expect(checkResultSchema("result", { type: "no-such-type" }, {}, "c4")).rejects.toThrow(/Tool call c4: its result schema does not compile/);
  });

  it("gives up a check that is slow for another reason than a pattern (uniqueItems compares every pair), the event loop free meanwhile", async () => {
    const schema = { type: "object", properties: { builds: { type: "array", uniqueItems: true } } };
    const builds = Array.from({ length: 30_000 }, (_, i) => [i]);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = Date.now();
    await expect(checkResultSchema("result", schema, { builds }, "c5", 500)).rejects.toMatchObject({ code: "INVALID_INPUT", message: "result: could not be checked against the tool's result schema within 0.5 s; send a smaller result" });
    clearInterval(ticker);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ticks).toBeGreaterThanOrEqual(10);
    await expect(checkResultSchema("result", schema, { builds: [[1], [1]] }, "c5")).rejects.toThrow("result.builds: must NOT have duplicate items (items ## 0 and 1 are identical)");
  });
});
