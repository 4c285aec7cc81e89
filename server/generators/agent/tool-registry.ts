import { Ajv, type ValidateFunction } from "ajv";
import { CallFailedError, configurationErrorOf, type JsonObject } from "../../engine";
import type { ChatTool } from "../chat/chat-model";

/** What a tool may use while it runs: the step's dependencies, its draft guards, the specification. */
export interface ToolContext {
  readonly specification: string;
  readonly dependencies: Readonly<Record<string, { readonly content: string }>>;
  readonly checkDraft?: (content: string) => Promise<{ passed: boolean; fatal: boolean; feedback: string }>;
}

/** A tool is a policy (002): a name, a description and a JSON Schema for its input, and the code. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  run(input: JsonObject, context: ToolContext): Promise<JsonObject>;
}

/**
 * Tools by name. `invoke` validates the model's arguments against the tool's schema, and every
 * failure (unknown tool, bad JSON, invalid input, the tool's own error) is a CallFailedError,
 * which the ledger keeps as data for the model to read and correct (002 section 5.4).
 */
export class ToolRegistry {
  readonly #tools = new Map<string, { definition: ToolDefinition; validate: ValidateFunction }>();
  readonly #ajv = new Ajv({ allErrors: true, strict: false });

  register(definition: ToolDefinition): this {
    if (this.#tools.has(definition.name)) throw new Error(`Tool "${definition.name}" is already registered`);
    this.#tools.set(definition.name, { definition, validate: this.#ajv.compile(definition.inputSchema) });
    return this;
  }

  /** The tools in the shape the chat model announces them. */
  describe(): ChatTool[] {
    return [...this.#tools.values()].map(({ definition }) => ({ name: definition.name, description: definition.description, parameters: definition.inputSchema }));
  }

  async invoke(name: string, argumentsJson: string, context: ToolContext): Promise<JsonObject> {
    const tool = this.#tools.get(name);
    if (!tool) throw new CallFailedError("UNKNOWN_TOOL", `There is no tool ${JSON.stringify(name.slice(0, 64))}. Available: ${[...this.#tools.keys()].join(", ")}`);
    let input: unknown;
    try {
      input = argumentsJson.trim() === "" ? {} : JSON.parse(argumentsJson);
    } catch {
      // The model reads this and tries again; its own text is not repeated back (it may be huge).
      throw new CallFailedError("INVALID_ARGUMENTS", `The arguments of ${name} are not valid JSON (${Buffer.byteLength(argumentsJson)} bytes): send one JSON object matching the tool's input schema.`);
    }
    if (!tool.validate(input)) {
      const problems = (tool.validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`).join("; ");
      throw new CallFailedError("INVALID_ARGUMENTS", `The arguments of ${name} do not match its schema: ${problems}`);
    }
    try {
      return await tool.definition.run(input as JsonObject, context);
    } catch (error) {
      // A guard that cannot work as configured (check_draft) stops the step; it is not the model's to fix.
      if (error instanceof CallFailedError || configurationErrorOf(error)) throw error;
      throw new CallFailedError("TOOL_FAILED", `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
