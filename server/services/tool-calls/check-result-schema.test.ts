import { describe, expect, it } from "vitest";
import { checkResultSchema } from "./check-result-schema";

describe("checkResultSchema", () => {
  it("accepts any object without a schema, and names each field at fault with one", () => {
    expect(() => checkResultSchema("result", null, { anything: [1] }, "c1")).not.toThrow();
    const schema = { type: "object", properties: { items: { type: "array", items: { type: "integer" } } }, required: ["items"] };
    expect(() => checkResultSchema("result", schema, { items: [1, "two"] }, "c1")).toThrow("result.items[1]: must be integer");
    expect(() => checkResultSchema("answer", schema, {}, "c1")).toThrow("answer.items: is required");
  });

  it("keeps schemas that share an $id apart", () => {
    const first = { $id: "https://example.test/answer", type: "object", required: ["a"] };
    const second = { $id: "https://example.test/answer", type: "object", required: ["b"] };
    expect(() => checkResultSchema("answer", first, { a: 1 }, "c1")).not.toThrow();
    expect(() => checkResultSchema("answer", second, { a: 1 }, "c2")).toThrow("answer.b: is required");
  });

  it("says the workflow's tool must be fixed when a stored schema cannot be used", () => {
    expect(() => checkResultSchema("result", { type: "object", properties: { a: { type: "string", pattern: "(?=x)" } } }, {}, "c3")).toThrow(/Tool call c3: its result schema cannot be used .*RE2.*; the workflow's tool must be fixed/);
    expect(() => checkResultSchema("result", { type: "no-such-type" }, {}, "c4")).toThrow(/Tool call c4: its result schema does not compile/);
  });
});
