import { describe, expect, it } from "vitest";
import { answerFields, initialValues, problemsFromServer, readAnswer } from "./answer-form-model";

const SCHEMA = {
  type: "object",
  properties: {
    approved: { type: "boolean", title: "Approved" },
    region: { type: "string", enum: ["eu-west", "us-east"], title: "Region" },
    replicas: { type: "integer", minimum: 1, maximum: 9 },
    note: { type: "string", description: "Anything the model should know" },
    tag: { type: "string", maxLength: 20 },
    ratio: { type: "number" },
    extra: { type: "object" },
  },
  required: ["approved", "region", "replicas"],
};

describe("the answer form generated from a question's schema", () => {
  it("has one field per property, of the kind its type asks for, with the required ones marked", () => {
    const fields = answerFields(SCHEMA);
    expect(fields.map((field) => [field.name, field.label, field.kind, field.required])).toEqual([
      ["approved", "Approved", "boolean", true],
      ["region", "Region", "enum", true],
      ["replicas", "replicas", "integer", true],
      ["note", "note", "textarea", false],
      ["tag", "tag", "text", false],
      ["ratio", "ratio", "number", false],
      ["extra", "extra", "json", false],
    ]);
    expect(fields[3]!.description).toBe("Anything the model should know");
  });

  it("reads a filled form into the answer, leaving out optional fields left empty", () => {
    const fields = answerFields(SCHEMA);
    const values = { ...initialValues(fields, SCHEMA), approved: true, region: "1", replicas: "3", ratio: "0.5", extra: '{"a":[1]}' };
    expect(readAnswer(fields, values)).toEqual({ ok: true, answer: { approved: true, region: "us-east", replicas: 3, ratio: 0.5, extra: { a: [1] } } });
  });

  it("names each field at fault, as the server does", () => {
    const fields = answerFields(SCHEMA);
    const values = { ...initialValues(fields, SCHEMA), replicas: "2.5", tag: "x".repeat(21), ratio: "many", extra: "{" };
    expect(readAnswer(fields, values)).toEqual({
      ok: false,
      problems: {
        region: "answer.region: is required",
        replicas: "answer.replicas: must be a whole number",
        tag: "answer.tag: must be at most 20 characters",
        ratio: "answer.ratio: must be a number",
        extra: "answer.extra: is not valid JSON",
      },
    });
    expect(readAnswer(fields, { ...values, replicas: "12" })).toMatchObject({ ok: false, problems: { replicas: "answer.replicas: must be at most 9" } });
  });

  it("without properties, the whole answer is one JSON object", () => {
    const fields = answerFields(null);
    expect(fields).toHaveLength(1);
    expect(readAnswer(fields, { "": '{"ok":true}' })).toEqual({ ok: true, answer: { ok: true } });
    expect(readAnswer(fields, { "": "[1]" })).toEqual({ ok: false, problems: { "": "answer: must be one JSON object" } });
  });

  it("maps a server refusal to the fields it names", () => {
    const fields = answerFields(SCHEMA);
    expect(problemsFromServer(fields, 'answer.region: must be one of "eu-west", "us-east"; answer.extra.a: must be array; something else')).toEqual({
      region: 'answer.region: must be one of "eu-west", "us-east"',
      extra: "answer.extra.a: must be array",
    });
  });
});
