import { GenerationFailedError, requestPrompt, type Generator, type GenerationRequest, type JsonObject } from "../../engine";
import type { ChatMessage, ChatModel, ChatReply } from "../chat/chat-model";
import { extractArtifact } from "../openai/extract-artifact";
import { BUILTIN_TOOLS } from "./builtin-tools";
import { ToolRegistry, type ToolContext, type ToolDefinition } from "./tool-registry";

export const DEFAULT_MAX_TURNS = 8;

const SYSTEM_PROMPT = `You are a careful software engineer working inside an automated pipeline.
Use the tools when they help: read the artifacts this step depends on, check drafts against the
step's guards. When you are done, answer with the final artifact only, and make no more tool calls.`;

export interface AgentGeneratorOptions {
  readonly model: ChatModel;
  readonly modelName: string;
  /** Turns of model calls before the loop stops (002's loop wrapper). */
  readonly maxTurns?: number;
  /** Tools added to the built-in ones. */
  readonly tools?: readonly ToolDefinition[];
  readonly extract?: "code" | "text";
  readonly temperature?: number;
  readonly systemPrompt?: string;
}

/**
 * The semantic agent of 001 on 002's ledger: a model loop with tools. Every model turn and every
 * tool call goes through the run's CallLedger under a key made of the attempt, the turn and the
 * tool's position, so a re-run replays finished turns without calling anything. The workflow sees
 * only the final text (its reasoning stays in the ledger, opaque to the workflow state).
 */
export function createAgentGenerator(options: AgentGeneratorOptions): Generator {
  const registry = new ToolRegistry();
  for (const tool of [...BUILTIN_TOOLS, ...(options.tools ?? [])]) registry.register(tool);
  const tools = registry.describe();
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;

  return {
    async generate(request) {
      const prompt = requestPrompt(request);
      const messages: ChatMessage[] = [
        { role: "system", content: options.systemPrompt ?? SYSTEM_PROMPT },
        { role: "user", content: prompt },
      ];
      const toolContext: ToolContext = { specification: request.context.specification, dependencies: request.dependencies, checkDraft: request.checkDraft };
      let toolCallCount = 0;
      let replayedTurns = 0;

      for (let turn = 1; turn <= maxTurns; turn++) {
        request.signal?.throwIfAborted();
        const key = `${request.callKey}/turn-${turn}`;
        const outcome = await request.calls.call(
          `${key}/model`,
          { actor: "assistant", policy: "model", payload: { model: options.modelName, messages: messages as unknown as JsonObject[] } },
          async () =>
            (await options.model.complete({ model: options.modelName, messages, tools, temperature: options.temperature, signal: request.signal })) as unknown as JsonObject,
        );
        if (!outcome.ok) throw new GenerationFailedError(`The agent's model call failed on turn ${turn}: ${outcome.error.message}`, outcome.error.code);
        if (outcome.replayed) replayedTurns += 1;
        const reply = outcome.result as unknown as ChatReply;

        if (reply.toolCalls.length === 0) {
          return { content: extractArtifact(reply.content, options.extract ?? "code"), metadata: metadata(options, request, prompt, turn, toolCallCount, replayedTurns) };
        }
        if (reply.content) await request.calls.note(`${key}/text`, "assistant", reply.content);
        messages.push({ role: "assistant", content: reply.content || null, toolCalls: reply.toolCalls });
        for (const [index, toolCall] of reply.toolCalls.entries()) {
          toolCallCount += 1;
          const result = await request.calls.call(
            `${key}/tool-${index + 1}`,
            { actor: "assistant", policy: toolCall.name, payload: { arguments: toolCall.arguments } },
            () => registry.invoke(toolCall.name, toolCall.arguments, toolContext),
          );
          messages.push({ role: "tool", toolCallId: toolCall.id, content: JSON.stringify(result.ok ? result.result : result.error) });
        }
      }
      throw new GenerationFailedError(`The agent made tool calls on all ${maxTurns} turns without giving a final answer`, "MAX_TURNS");
    },
  };
}

function metadata(options: AgentGeneratorOptions, request: GenerationRequest, prompt: string, turns: number, toolCalls: number, replayedTurns: number) {
  return { generator: "agent", model: options.modelName, prompt, turns, toolCalls, replayedTurns, step: request.stepName };
}
