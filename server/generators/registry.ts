import type { Generator } from "../engine";
import { createAgentGenerator } from "./agent/agent-generator";
import type { ToolDefinition } from "./agent/tool-registry";
import { createOpenAiChatModel } from "./chat/openai-chat-model";
import type { ChatModel } from "./chat/chat-model";
import { GeneratorSpecError, parseGeneratorSpec, type AgentGeneratorSpec, type OpenAiGeneratorSpec, type ReplayGeneratorSpec } from "./generator-spec";
import { createOpenAiGenerator, type TokenEvent } from "./openai/openai-generator";
import { createAgentReplayGenerator } from "./replay/agent-replay-generator";
import { parseCassette, type Cassette } from "./replay/cassette";
import { readNamedCassette } from "./replay/cassette-file";
import { createReplayGenerator } from "./replay/replay-generator";

/** Where generators run: the configured endpoint (from the environment) and optional listeners. */
export interface GeneratorContext {
  readonly endpoint?: { readonly baseURL?: string; readonly apiKey?: string; readonly model?: string };
  /** Receives the tokens of streamed model replies (the live run view). */
  readonly onToken?: (event: TokenEvent) => void;
  /** Tools added to the agent's built-in ones. */
  readonly tools?: readonly ToolDefinition[];
  /** Replaces the chat model (tests, or a client shared between steps). */
  readonly chatModel?: ChatModel;
  /** Where a cassette named by a document is looked up (DUALSTATE_CASSETTE_DIR, the bundled examples). */
  readonly cassetteDirectories?: readonly string[];
  /**
   * The cassette a replayed run answers from. An agent spec then builds the real agent, its model
   * answering from the cassette (createAgentReplayGenerator); other kinds ignore it (the run's
   * replay override replaces them).
   */
  readonly replay?: Cassette;
}

/**
 * The cassette a replay spec names or holds.
 * @throws GeneratorSpecError at `<where>.cassette` when it cannot be read or is invalid.
 */
export function cassetteOf(spec: ReplayGeneratorSpec, context: Pick<GeneratorContext, "cassetteDirectories">, where: string): Cassette {
  try {
    return typeof spec.cassette === "string" ? readNamedCassette(spec.cassette, context.cassetteDirectories ?? []) : parseCassette(spec.cassette, `${where}.cassette`);
  } catch (error) {
    throw new GeneratorSpecError(`${where}.cassette: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function modelName(spec: OpenAiGeneratorSpec | AgentGeneratorSpec, context: GeneratorContext, where: string): string {
  const model = spec.model ?? context.endpoint?.model;
  if (!model) throw new GeneratorSpecError(`${where}.model: no model: set the step's model option or OPENAI_MODEL`);
  return model;
}

function chatModel(spec: OpenAiGeneratorSpec | AgentGeneratorSpec, context: GeneratorContext): ChatModel {
  return (
    context.chatModel ??
    createOpenAiChatModel({
      baseURL: context.endpoint?.baseURL,
      apiKey: context.endpoint?.apiKey,
      timeoutMs: spec.timeout_ms,
      maxRetries: spec.max_retries,
      maxReplyBytes: spec.max_reply_bytes,
    })
  );
}

/**
 * Builds a generator from its plain-object form.
 * @throws GeneratorSpecError naming the field when the object is not a valid generator.
 * @example createGenerator({ kind: "openai", model: "gpt-4o-mini" }, { endpoint: { baseURL, apiKey } })
 */
export function createGenerator(input: unknown, context: GeneratorContext = {}, where = "generator"): Generator {
  const spec = parseGeneratorSpec(input, where);
  switch (spec.kind) {
    case "openai":
    case "llm":
      return createOpenAiGenerator({
        model: chatModel(spec, context),
        modelName: modelName(spec, context, where),
        extract: spec.extract,
        temperature: spec.temperature,
        systemPrompt: spec.system_prompt,
        onToken: context.onToken,
      });
    case "agent":
      if (context.replay) {
        // No model is called, so none need be configured: the name is only what the ledger shows.
        return createAgentReplayGenerator({
          cassette: context.replay,
          modelName: spec.model ?? "cassette",
          maxTurns: spec.max_turns,
          tools: context.tools,
          extract: spec.extract,
          temperature: spec.temperature,
          systemPrompt: spec.system_prompt,
        });
      }
      return createAgentGenerator({
        model: chatModel(spec, context),
        modelName: modelName(spec, context, where),
        maxTurns: spec.max_turns,
        tools: context.tools,
        extract: spec.extract,
        temperature: spec.temperature,
        systemPrompt: spec.system_prompt,
      });
    case "replay":
      return createReplayGenerator(cassetteOf(spec, context, where));
  }
}
