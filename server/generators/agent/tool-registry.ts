import { PolicyRegistry, type CallIdentity, type JsonObject, type PolicyEntry } from "../../engine";
import { linearRegExp } from "../../guards/json-schema/linear-regexp.mjs";
import type { ChatModel } from "../chat/chat-model";

/** What a tool may use while it runs: the step's dependencies, its draft guards, the specification. */
export interface ToolContext {
  readonly specification: string;
  readonly dependencies: Readonly<Record<string, { readonly content: string }>>;
  readonly checkDraft?: (content: string) => Promise<{ passed: boolean; fatal: boolean; feedback: string }>;
  /** The step and attempt generating (GenerationRequest): a waiting tool's request names them. */
  readonly stepName: string;
  readonly attempt: number;
  /**
   * A replayed run's recorded result for a waiting tool of this name (the cassette's `reports`,
   * the entry for this attempt). A waiting tool asks this first and returns what it gives
   * instead of waiting. Absent in live runs.
   */
  readonly recordedReport?: (tool: string) => JsonObject | undefined;
  /** This call's identity in the run's ledger (its key is where a waiting tool's result is reported). */
  readonly identity?: CallIdentity;
  /** Aborted when the turn must stop (cancel, lost lease, shutdown): a tool running code stops it. */
  readonly signal?: AbortSignal;
}

/** The part of a ToolContext that is the same for every call of one generation. */
export type ToolEnv = Omit<ToolContext, "identity" | "signal">;

/**
 * A tool is a policy (002): a name, a description and a JSON Schema for its input, and the code.
 * It throws CallFailedError for a failure the model should read and correct; any other error is
 * handed to the model as TOOL_FAILED, except a configuration error, which stops the step.
 */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  /** Bound of the model's arguments in UTF-8 bytes (the registry's MAX_INPUT_BYTES when unset). */
  readonly maxInputBytes?: number;
  run(input: JsonObject, context: ToolContext): Promise<JsonObject>;
}

/** The agent's policies' configuration for one generation (the Context's `env`). */
export interface AgentEnv {
  readonly tools: ToolEnv;
  readonly chat: { readonly model: ChatModel; readonly modelName: string; readonly temperature?: number };
}

export function toolEntry(definition: ToolDefinition): PolicyEntry<AgentEnv> {
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    ...(definition.maxInputBytes === undefined ? {} : { maxInputBytes: definition.maxInputBytes }),
    run: (input, ctx) => definition.run(input, { ...ctx.env.tools, identity: ctx.identity, signal: ctx.signal }),
  };
}

/** A registry for the agent's policies; schema patterns run on the linear-time engine the json_schema guard uses. */
export function createAgentRegistry(): PolicyRegistry<AgentEnv> {
  return new PolicyRegistry<AgentEnv>({ regExp: linearRegExp });
}
