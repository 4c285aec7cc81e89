/**
 * A person tool's answer_schema: the review queue renders a form from it, so it is kept to a
 * subset a form can show: an object whose properties are text, numbers, whole numbers, booleans
 * or a choice among listed values. Every problem names the key at fault.
 */
type Path = (string | number)[];
export interface AnswerSchemaProblem {
  readonly path: Path;
  readonly message: string;
}

export const MAX_ANSWER_FIELDS = 32;
export const MAX_ENUM_VALUES = 100;
const FIELD_TYPES = ["string", "number", "integer", "boolean"] as const;
const ROOT_KEYS = new Set(["type", "properties", "required", "additionalProperties", "title", "description"]);
const FIELD_KEYS = new Set(["type", "enum", "title", "description", "default", "minimum", "maximum", "minLength", "maxLength"]);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function answerSchemaProblems(schema: Record<string, unknown>): AnswerSchemaProblem[] {
  const problems: AnswerSchemaProblem[] = [];
  const add = (path: Path, message: string) => problems.push({ path, message });
  for (const key of Object.keys(schema)) if (!ROOT_KEYS.has(key)) add([key], `not supported in an answer form (use ${[...ROOT_KEYS].join(", ")})`);
  if (schema.type !== "object") add(["type"], `must be "object": a person answers with a form of named fields`);
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) add(["additionalProperties"], "must be false when given: the form has only the listed fields");
  for (const key of ["title", "description"]) if (schema[key] !== undefined && typeof schema[key] !== "string") add([key], "must be text");
  const properties = schema.properties;
  if (!isObject(properties)) {
    add(["properties"], "must be a mapping of the form's fields");
    return problems;
  }
  const names = Object.keys(properties);
  if (names.length === 0) add(["properties"], "must list at least one field");
  if (names.length > MAX_ANSWER_FIELDS) add(["properties"], `has ${names.length} fields; the limit is ${MAX_ANSWER_FIELDS}`);
  for (const name of names.slice(0, MAX_ANSWER_FIELDS)) fieldProblems(properties[name], ["properties", name], add);
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required)) add(["required"], "must be a list of field names");
    else schema.required.forEach((name, i) => {
      if (typeof name !== "string" || !Object.hasOwn(properties, name)) add(["required", i], `${JSON.stringify(name).slice(0, 80)} is not a field of properties`);
    });
  }
  return problems;
}

function fieldProblems(field: unknown, at: Path, add: (path: Path, message: string) => void): void {
  if (!isObject(field)) return add(at, "must be a mapping with a type");
  for (const key of Object.keys(field)) if (!FIELD_KEYS.has(key)) add([...at, key], `not supported in an answer form field (use ${[...FIELD_KEYS].join(", ")})`);
  const type = field.type;
  if (!FIELD_TYPES.includes(type as never)) return add([...at, "type"], `must be one of ${FIELD_TYPES.join(", ")}`);
  for (const key of ["title", "description"]) if (field[key] !== undefined && typeof field[key] !== "string") add([...at, key], "must be text");
  const numeric = type === "number" || type === "integer";
  for (const key of ["minimum", "maximum"]) if (field[key] !== undefined && (!numeric || typeof field[key] !== "number")) add([...at, key], numeric ? "must be a number" : `only for number and integer fields`);
  for (const key of ["minLength", "maxLength"]) {
    const value = field[key];
    if (value !== undefined && (type !== "string" || !Number.isInteger(value) || (value as number) < 0)) add([...at, key], type === "string" ? "must be a whole number, 0 or more" : "only for string fields");
  }
  const fits = (value: unknown) => (type === "string" ? typeof value === "string" : type === "boolean" ? typeof value === "boolean" : type === "integer" ? Number.isInteger(value) : typeof value === "number");
  if (field.enum !== undefined) {
    if (!Array.isArray(field.enum) || field.enum.length === 0) add([...at, "enum"], "must be a non-empty list of choices");
    else if (field.enum.length > MAX_ENUM_VALUES) add([...at, "enum"], `has ${field.enum.length} choices; the limit is ${MAX_ENUM_VALUES}`);
    else field.enum.forEach((value, i) => {
      if (!fits(value)) add([...at, "enum", i], `must be a ${type} like the field`);
    });
  }
  if (field.default !== undefined && !fits(field.default)) add([...at, "default"], `must be a ${type} like the field`);
}
