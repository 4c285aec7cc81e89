import { describe, expect, it } from "vitest";
import { createArtifact } from "../../engine";
import { createJsonSchemaGuard } from "./json-schema-guard";

const artifact = (content: string) => createArtifact({ id: "a", content, version: 1, parentId: null });
const schema = {
  type: "object",
  required: ["name", "tags"],
  additionalProperties: false,
  properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } }, level: { enum: ["low", "high"] } },
};

describe("json_schema guard", () => {
  it("passes a matching document", async () => {
    expect(await createJsonSchemaGuard(schema).validate(artifact('{"name": "x", "tags": ["a"]}'), {})).toMatchObject({ passed: true });
  });

  it("lists every violation with its path", async () => {
    const result = await createJsonSchemaGuard(schema).validate(artifact('{"name": 3, "tags": ["a", 4], "level": "mid", "extra": true}'), {});
    expect(result.passed).toBe(false);
    expect(result.feedback).toContain("(4 violations)");
    expect(result.feedback).toContain("- /name: must be string");
    expect(result.feedback).toContain("- /tags/1: must be string");
    expect(result.feedback).toContain('- /level: must be equal to one of the allowed values: ["low","high"]');
    expect(result.feedback).toContain('- /: must NOT have additional properties "extra"');
  });

  it("reports a missing required property at the root", async () => {
    const result = await createJsonSchemaGuard(schema).validate(artifact('{"name": "x"}'), {});
    expect(result.feedback).toContain("- /: must have required property 'tags'");
  });

  it("reports invalid JSON with where it broke", async () => {
    const result = await createJsonSchemaGuard(schema).validate(artifact('{\n  "name": "x",\n  "tags": [,]\n}'), {});
    expect(result).toMatchObject({ passed: false, fatal: false });
    expect(result.feedback).toMatch(/^Not valid JSON: .*\(line 3, column \d+\)/);
  });

  it("rejects an invalid schema when the guard is built, naming the field", () => {
    expect(() => createJsonSchemaGuard({ type: "no-such-type" })).toThrow(/guard\.schema: not a valid JSON Schema/);
  });
});
