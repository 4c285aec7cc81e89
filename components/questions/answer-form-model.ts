/**
 * The answer form of a tool's question, generated from its JSON Schema (pure, so it is tested on
 * its own): one field per property: string → text input (text area when it may be long), number
 * and integer → number input, boolean → checkbox, enum → select, anything else → JSON text area.
 * Without properties the whole answer is one JSON text area. Values are checked before sending,
 * with messages that name the field as the server's do (`answer.region: is required`); the server
 * checks again against the schema itself.
 */
import type { JsonObject, JsonValue } from "@/server/engine";

export type FieldKind = "text" | "textarea" | "number" | "integer" | "boolean" | "enum" | "json";

export interface AnswerField {
  /** The property's name; "" for the whole answer (a schema without properties). */
  readonly name: string;
  readonly label: string;
  readonly description: string | null;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly options: readonly JsonValue[];
  readonly minimum: number | null;
  readonly maximum: number | null;
  readonly maxLength: number | null;
}

/** What the form holds: text for inputs, selects (the option's index) and JSON, a flag for checkboxes. */
export type FormValues = Readonly<Record<string, string | boolean>>;

/** Strings longer than this get a text area. */
const SHORT_TEXT = 120;
export const WHOLE_ANSWER = "";

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
const numberOr = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);

function kindOf(property: JsonObject): FieldKind {
  if (Array.isArray(property.enum) && property.enum.length > 0) return "enum";
  switch (property.type) {
    case "string":
      return numberOr(property.maxLength) !== null && numberOr(property.maxLength)! <= SHORT_TEXT ? "text" : "textarea";
    case "number":
      return "number";
    case "integer":
      return "integer";
    case "boolean":
      return "boolean";
    default:
      return "json";
  }
}

/** The form's fields, in the schema's order. */
export function answerFields(schema: JsonObject | null): AnswerField[] {
  const properties = schema && isObject(schema.properties) ? schema.properties : null;
  if (!properties || Object.keys(properties).length === 0) {
    return [{ name: WHOLE_ANSWER, label: "Answer (a JSON object)", description: null, kind: "json", required: true, options: [], minimum: null, maximum: null, maxLength: null }];
  }
  const required = new Set(Array.isArray(schema!.required) ? schema!.required.filter((name): name is string => typeof name === "string") : []);
  return Object.entries(properties).map(([name, raw]) => {
    const property = isObject(raw) ? raw : {};
    return {
      name,
      label: text(property.title) ?? name,
      description: text(property.description),
      kind: kindOf(property),
      required: required.has(name),
      options: Array.isArray(property.enum) ? property.enum : [],
      minimum: numberOr(property.minimum),
      maximum: numberOr(property.maximum),
      maxLength: numberOr(property.maxLength),
    };
  });
}

/** The values an empty form starts with: checkboxes unticked (or the schema's default), the rest empty. */
export function initialValues(fields: readonly AnswerField[], schema: JsonObject | null): Record<string, string | boolean> {
  const properties = schema && isObject(schema.properties) ? schema.properties : {};
  return Object.fromEntries(
    fields.map((field) => {
      const fallback = isObject(properties[field.name]) ? (properties[field.name] as JsonObject).default : undefined;
      if (field.kind === "boolean") return [field.name, fallback === true];
      if (field.kind === "json" && field.name === WHOLE_ANSWER) return [field.name, "{}"];
      return [field.name, ""];
    }),
  );
}

/** How an enum option reads in the select. */
export function optionLabel(option: JsonValue): string {
  return typeof option === "string" ? option : JSON.stringify(option);
}

/** `answer.region`, as the server names fields. */
export function fieldPath(field: Pick<AnswerField, "name">): string {
  return field.name === WHOLE_ANSWER ? "answer" : `answer.${field.name}`;
}

type Read = { ok: true; value: JsonValue | undefined } | { ok: false; problem: string };

function readField(field: AnswerField, raw: string | boolean | undefined): Read {
  if (field.kind === "boolean") return { ok: true, value: raw === true };
  const input = typeof raw === "string" ? raw : "";
  if (input.trim() === "") return field.required ? { ok: false, problem: "is required" } : { ok: true, value: undefined };
  switch (field.kind) {
    case "text":
    case "textarea":
      if (field.maxLength !== null && input.length > field.maxLength) return { ok: false, problem: `must be at most ${field.maxLength} characters` };
      return { ok: true, value: input };
    case "number":
    case "integer": {
      const value = Number(input);
      if (!Number.isFinite(value)) return { ok: false, problem: "must be a number" };
      if (field.kind === "integer" && !Number.isInteger(value)) return { ok: false, problem: "must be a whole number" };
      if (field.minimum !== null && value < field.minimum) return { ok: false, problem: `must be at least ${field.minimum}` };
      if (field.maximum !== null && value > field.maximum) return { ok: false, problem: `must be at most ${field.maximum}` };
      return { ok: true, value };
    }
    case "enum": {
      const index = Number(input);
      return Number.isInteger(index) && index >= 0 && index < field.options.length ? { ok: true, value: field.options[index]! } : { ok: false, problem: "must be one of the choices" };
    }
    case "json":
      try {
        const value = JSON.parse(input) as JsonValue;
        if (field.name === WHOLE_ANSWER && !isObject(value)) return { ok: false, problem: "must be one JSON object" };
        return { ok: true, value };
      } catch {
        return { ok: false, problem: "is not valid JSON" };
      }
  }
}

/** The answer to send, or the problem of each field by its name (messages name the field). */
export function readAnswer(fields: readonly AnswerField[], values: FormValues): { ok: true; answer: JsonObject } | { ok: false; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const answer: Record<string, JsonValue> = {};
  for (const field of fields) {
    const read = readField(field, values[field.name]);
    if (!read.ok) problems[field.name] = `${fieldPath(field)}: ${read.problem}`;
    else if (field.name === WHOLE_ANSWER) return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, answer: read.value as JsonObject };
    else if (read.value !== undefined) answer[field.name] = read.value;
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, answer };
}

/** The fields a server refusal names (`answer.region: must be string; answer.count: …`), by field name. */
export function problemsFromServer(fields: readonly AnswerField[], message: string): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const part of message.split("; ")) {
    const field = fields.find((candidate) => part.startsWith(`${fieldPath(candidate)}:`) || part.startsWith(`${fieldPath(candidate)}.`) || part.startsWith(`${fieldPath(candidate)}[`));
    if (field && !problems[field.name]) problems[field.name] = part;
  }
  return problems;
}
