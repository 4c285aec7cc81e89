import { GenerationFailedError, requestPrompt, type Generator, type GenerationRequest, type JsonObject } from "../../engine";
import type { ChatMessage, ChatModel, ChatToolCall } from "../chat/chat-model";
import { cutShortFeedback, readRecordedReply, toRecordedJson } from "../chat/recorded-reply";
import { extractArtifact } from "../openai/extract-artifact";
import { BUILTIN_TOOLS } from "./builtin-tools";
import { ToolRegistry, type ToolContext, type ToolDefinition } from "./tool-registry";

export const DEFAULT_MAX_TURNS = 8;
/** Tool calls run in one turn; a model asking for more gets an error for the rest (each may run the step's guards). */
export const MAX_TOOL_CALLS_PER_TURN = 16;

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
          async () => toRecordedJson(await options.model.complete({ model: options.modelName, messages, tools, temperature: options.temperature, signal: request.signal })),
        );
        if (!outcome.ok) throw new GenerationFailedError(`The agent's model call failed on turn ${turn}: ${outcome.error.message}`, outcome.error.code);
        if (outcome.replayed) replayedTurns += 1;
        const reply = readRecordedReply(outcome.result);

        // No tool calls: this is the final answer. Content null beside tool calls is a normal turn
        // and never gets here; an empty or cut-off final answer is the engine's to fail.
        if (reply.toolCalls.length === 0) {
          const incomplete = cutShortFeedback(reply);
          return {
            content: extractArtifact(reply.content, options.extract ?? "code"),
            ...(incomplete ? { incomplete } : {}),
            metadata: metadata(options, request, prompt, turn, toolCallCount, replayedTurns),
          };
        }
        if (reply.content) await request.calls.note(`${key}/text`, "assistant", reply.content);
        messages.push({ role: "assistant", content: reply.content || null, toolCalls: reply.toolCalls });
        for (const [index, toolCall] of reply.toolCalls.entries()) {
          // Every call gets an answer (the protocol wants one per call id), but only the first ones run.
          if (index >= MAX_TOOL_CALLS_PER_TURN) {
            messages.push({ role: "tool", toolCallId: toolCall.id, content: JSON.stringify(notRun()) });
            continue;
          }
          toolCallCount += 1;
          // Malformed arguments are the tool's error (INVALID_ARGUMENTS), recorded and handed back to the model.
          const result = await request.calls.call(
            `${key}/tool-${index + 1}`,
            { actor: "assistant", policy: policyName(toolCall), payload: { arguments: toolCall.arguments } },
            () => registry.invoke(toolCall.name, toolCall.arguments, toolContext),
          );
          messages.push({ role: "tool", toolCallId: toolCall.id, content: JSON.stringify(result.ok ? result.result : result.error) });
        }
      }
      throw new GenerationFailedError(`The agent made tool calls on all ${maxTurns} turns without giving a final answer`, "MAX_TURNS");
    },
  };
}

function notRun() {
  return { error: true, code: "TOO_MANY_TOOL_CALLS", message: `Not run: at most ${MAX_TOOL_CALLS_PER_TURN} tool calls are run per turn.` };
}

/** The ledger's policy column names the tool; a model's made-up name is kept short there. */
function policyName(call: ChatToolCall): string {
  return call.name.length <= 64 ? call.name : `${call.name.slice(0, 64)}…`;
}

function metadata(options: AgentGeneratorOptions, request: GenerationRequest, prompt: string, turns: number, toolCalls: number, replayedTurns: number) {
  return { generator: "agent", model: options.modelName, prompt, turns, toolCalls, replayedTurns, step: request.stepName };
}
