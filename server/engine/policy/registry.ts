import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { JsonObject } from "../ports/call-ledger";
import { MAX_INPUT_BYTES, readInput, schemaProblem } from "./input-bounds";
import type { Policy, RuntimeContext } from "./policy";

/**
 * 002 section 3.6: a policy with what a model needs to call it. Either a policy proper (steps in,
 * steps out, may call others) or a tool: a leaf whose `run` returns one result, recorded as is
 * (the shape 6.2 describes: one action_result step), so the ledger row reads as the result itself.
 */
export type PolicyEntry<Env = unknown> = EntryInfo & ({ readonly policy: Policy<Env>; readonly run?: never } | { readonly run: ToolRun<Env>; readonly policy?: never });

/** A leaf's work: its checked input to its result; a CallFailedError is its failure as data. */
export type ToolRun<Env = unknown> = (input: JsonObject, ctx: RuntimeContext<Env>) => Promise<JsonObject>;

interface EntryInfo {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the payload, checked before every call. */
  readonly inputSchema: JsonObject;
  /** Never offered to a model as a tool, and refused when a model asks for it; code may still call it. */
  readonly internal?: boolean;
  /** The policies this one may call in turn (its Action's allowed actions when a model invokes it). */
  readonly actions?: readonly string[];
  /** Bound of the payload's JSON, in UTF-8 bytes; MAX_INPUT_BYTES when unset. */
  readonly maxInputBytes?: number;
}

/** ajv's engine for `pattern`: `(pattern, flags) => { test }` (a linear-time one such as RE2). */
export type RegExpEngine = NonNullable<NonNullable<ConstructorParameters<typeof Ajv>[0]>["code"]>["regExp"];

/** Names a model can call (the OpenAI function-name rule), so a registered policy is always announceable. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export class PolicyRegistrationError extends Error {
  override readonly name = "PolicyRegistrationError";
}

export type InputCheck = { ok: true; input: JsonObject } | { ok: false; message: string };

/** Policies by name, each compiled once with its bounded input schema. */
export class PolicyRegistry<Env = unknown> {
  readonly #entries = new Map<string, { entry: PolicyEntry<Env>; validate: ValidateFunction }>();
  readonly #ajv: Ajv;
  readonly #linearPatterns: boolean;

  constructor(options: { readonly regExp?: RegExpEngine } = {}) {
    this.#linearPatterns = options.regExp !== undefined;
    // No loadSchema: a $ref to anything outside the schema cannot be fetched (and is refused first).
    this.#ajv = new Ajv({ allErrors: true, strict: false, ...(options.regExp ? { code: { regExp: options.regExp } } : {}) });
  }

  register(entry: PolicyEntry<Env>): this {
    if (!NAME.test(entry.name)) throw new PolicyRegistrationError(`A policy's name must be 1 to 64 of A-Z a-z 0-9 _ -, got ${JSON.stringify(entry.name.slice(0, 80))}`);
    if (this.#entries.has(entry.name)) throw new PolicyRegistrationError(`Policy "${entry.name}" is already registered`);
    const problem = schemaProblem(entry.inputSchema, this.#linearPatterns);
    if (problem) throw new PolicyRegistrationError(`Policy "${entry.name}": ${problem}`);
    let validate: ValidateFunction;
    try {
      validate = this.#ajv.compile(entry.inputSchema);
    } catch (error) {
      throw new PolicyRegistrationError(`Policy "${entry.name}": the input schema does not compile: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.#entries.set(entry.name, { entry, validate });
    return this;
  }

  get(name: string): PolicyEntry<Env> | undefined {
    return this.#entries.get(name)?.entry;
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  /** The tools among `names` (registered, not internal), in the order given, as a model is told of them. */
  tools(names: Iterable<string>): { name: string; description: string; inputSchema: JsonObject }[] {
    return [...names].flatMap((name) => {
      const entry = this.get(name);
      return entry && !entry.internal ? [{ name, description: entry.description, inputSchema: entry.inputSchema }] : [];
    });
  }

  /** The payload for `name` read within its bounds and checked against its schema, or why not (naming the field). */
  check(name: string, raw: JsonObject | string): InputCheck {
    const known = this.#entries.get(name);
    if (!known) return { ok: false, message: `There is no policy ${JSON.stringify(name.slice(0, 64))}` };
    const read = readInput(name, raw, known.entry.maxInputBytes ?? MAX_INPUT_BYTES);
    if (!read.ok) return read;
    if (known.validate(read.input)) return read;
    const problems = (known.validate.errors ?? []).slice(0, 5).map(describeProblem);
    return { ok: false, message: `The arguments of ${name} do not match its schema: ${problems.join("; ")}` };
  }
}

/** "input.city must be string", "input is missing the required field \"city\"". */
function describeProblem(error: ErrorObject): string {
  const where = `input${error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment.slice(0, 64)}`))
    .join("")}`;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return `${where} is missing the required field "${String(params.missingProperty)}"`;
  if (error.keyword === "additionalProperties") return `${where} has an unknown field "${String(params.additionalProperty).slice(0, 64)}"`;
  return `${where} ${error.message ?? "is invalid"}`;
}
