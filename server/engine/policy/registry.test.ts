import { describe, expect, it } from "vitest";
import type { JsonObject } from "../ports/call-ledger";
import { MAX_INPUT_BYTES, MAX_INPUT_DEPTH, MAX_SCHEMA_DEPTH } from "./input-bounds";
import { PolicyRegistry, type PolicyEntry } from "./registry";

const tool = (name: string, inputSchema: PolicyEntry["inputSchema"]): PolicyEntry => ({ name, description: `the ${name} tool`, inputSchema, run: async () => ({}) });

const weather = tool("get_weather", {
  type: "object",
  properties: { city: { type: "string", minLength: 1 }, days: { type: "integer", minimum: 1, maximum: 7 }, units: { enum: ["c", "f"] }, stops: { type: "array", items: { type: "object", properties: { at: { type: "string" } }, required: ["at"] } } },
  required: ["city"],
  additionalProperties: false,
});

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let level = 0; level < depth; level++) schema = { type: "object", properties: { inner: schema } };
  return schema;
}

describe("the registry checks a call's input against the entry's JSON Schema", () => {
  const registry = new PolicyRegistry().register(weather);

  it("passes input that matches, from an object or from JSON text", () => {
    expect(registry.check("get_weather", { city: "Seattle", days: 3 })).toEqual({ ok: true, input: { city: "Seattle", days: 3 } });
    expect(registry.check("get_weather", '{"city": "Seattle"}')).toEqual({ ok: true, input: { city: "Seattle" } });
  });

  it.each<[JsonObject, string]>([
    [{}, 'input is missing the required field "city"'],
    [{ city: 7 }, "input.city must be string"],
    [{ city: "Oslo", days: 30 }, "input.days must be <= 7"],
    [{ city: "Oslo", units: "k" }, "input.units must be equal to one of the allowed values"],
    [{ city: "Oslo", stops: [{ at: "x" }, {}] }, 'input.stops[1] is missing the required field "at"'],
    [{ city: "Oslo", country: "NO" }, 'input has an unknown field "country"'],
  ])("refuses %j naming the field", (input, message) => {
    const result = registry.check("get_weather", input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(message);
  });

  it.each<[string, string]>([
    ["{city: Seattle}", "are not valid JSON (15 bytes)"],
    ["[".repeat(500_000), "are not valid JSON (500000 bytes)"],
    ["[1, 2]", "must be one JSON object"],
    ['"Seattle"', "must be one JSON object"],
  ])("refuses arguments that are not one JSON object, without quoting them (%#)", (raw, message) => {
    const result = registry.check("get_weather", raw);
    expect(!result.ok && result.message).toContain(message);
  });

  it("refuses a huge payload by its size, before parsing it", () => {
    const huge = JSON.stringify({ city: "x".repeat(MAX_INPUT_BYTES) });
    const result = registry.check("get_weather", huge);
    expect(!result.ok && result.message).toBe(`The arguments of get_weather are ${huge.length} bytes, more than the ${MAX_INPUT_BYTES} allowed.`);
    const asObject = registry.check("get_weather", { city: "x".repeat(MAX_INPUT_BYTES) });
    expect(!asObject.ok && asObject.message).toMatch(/^The input of get_weather is \d+ bytes, more than/);
  });

  it("refuses a payload nested deeper than the bound (a million levels do not overflow the stack)", () => {
    const deep = `{"city": "x", "stops": ${"[".repeat(MAX_INPUT_DEPTH + 1)}${"]".repeat(MAX_INPUT_DEPTH + 1)}}`;
    expect(registry.check("get_weather", deep)).toEqual({ ok: false, message: `The arguments of get_weather nest deeper than ${MAX_INPUT_DEPTH} levels.` });
    let value: unknown = {};
    for (let level = 0; level < 1_000_000; level++) value = { v: value };
    expect(registry.check("get_weather", value as never)).toEqual({ ok: false, message: `The arguments of get_weather nest deeper than ${MAX_INPUT_DEPTH} levels.` });
  });

  it("names an unknown policy", () => {
    expect(registry.check("get_wether", {})).toEqual({ ok: false, message: 'There is no policy "get_wether"' });
  });
});

describe("the registry refuses entries it cannot safely use", () => {
  it.each([
    ["a remote $ref", { type: "object", properties: { a: { $ref: "https://example.com/schema.json" } } }, 'only references inside the schema ("#/...") are allowed'],
    ["a relative file $ref", { $ref: "other.json#/definitions/x" }, "never a remote one"],
    ["a schema nested too deep", nested(MAX_SCHEMA_DEPTH), `nested deeper than ${MAX_SCHEMA_DEPTH} levels`],
    ["a huge schema", { type: "object", description: "x".repeat(70 * 1024) }, "larger than 64 KiB"],
    ["a pattern without a linear-time engine", { type: "object", properties: { a: { type: "string", pattern: "^(a+)+$" } } }, "patterns need the registry's linear-time"],
    ["a schema that does not compile", { type: "no-such-type" }, "the input schema does not compile"],
    ["an array", [] as never, "must be a JSON Schema object"],
    ["uniqueItems over untyped items", { type: "object", properties: { tags: { type: "array", uniqueItems: true } } }, "/properties/tags/uniqueItems: uniqueItems needs"],
    ["uniqueItems over objects, however few", { type: "object", properties: { rows: { type: "array", maxItems: 10, items: { type: "object" }, uniqueItems: true } } }, "compares every pair"],
    ["uniqueItems over a mix including arrays", { type: "object", properties: { xs: { type: "array", items: { type: ["string", "array"] }, uniqueItems: true } } }, "uniqueItems needs"],
  ])("%s", (_what, schema, message) => {
    expect(() => new PolicyRegistry().register(tool("t", schema as PolicyEntry["inputSchema"]))).toThrow(message);
  });

  it("accepts uniqueItems over scalar items, and checks it", () => {
    const registry = new PolicyRegistry().register(tool("t", { type: "object", properties: { tags: { type: "array", items: { type: ["string", "integer"] }, uniqueItems: true } } }));
    expect(registry.check("t", { tags: ["a", 1, "b"] })).toMatchObject({ ok: true });
    expect(registry.check("t", { tags: ["a", "b", "a"] })).toMatchObject({ ok: false, message: expect.stringContaining("must NOT have duplicate items") });
  });

  it("accepts a reference inside the schema", () => {
    const registry = new PolicyRegistry().register(tool("t", { $defs: { name: { type: "string" } }, type: "object", properties: { a: { $ref: "#/$defs/name" } } }));
    expect(registry.check("t", { a: 1 })).toMatchObject({ ok: false, message: expect.stringContaining("input.a must be string") });
  });

  it.each(["", "has space", "x".repeat(65), "ünïcode", "a/b"])("refuses the name %j", (name) => {
    expect(() => new PolicyRegistry().register(tool(name, { type: "object" }))).toThrow(/A policy's name must be 1 to 64/);
  });

  it("refuses a second entry under the same name", () => {
    expect(() => new PolicyRegistry().register(weather).register(weather)).toThrow('Policy "get_weather" is already registered');
  });

  it("describes its tools with their schemas, leaving internal entries out", () => {
    const registry = new PolicyRegistry().register(weather).register({ ...tool("model", { type: "object" }), internal: true });
    expect(registry.tools(["model", "get_weather", "missing"])).toEqual([{ name: "get_weather", description: "the get_weather tool", inputSchema: weather.inputSchema }]);
  });
});
