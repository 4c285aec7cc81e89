import { type JsonObject, type PolicyEntry } from "../../engine";
import type { ChatMessage } from "../chat/chat-model";
import { toRecordedJson } from "../chat/recorded-reply";
import type { AgentEnv } from "./tool-registry";
import type { PolicyRegistry } from "../../engine";

export const MODEL_POLICY = "model";
/** A conversation grows with every tool result; the model call's input may be far larger than a tool's. */
export const MAX_MODEL_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * One chat completion as a leaf policy: the one non-deterministic step of the agent, so its
 * reply is recorded and replayed, never asked again. The request carries the call's
 * idempotency key. Internal: the assistant's code calls it; a model cannot ask for it as a tool.
 */
export function modelEntry(registry: PolicyRegistry<AgentEnv>): PolicyEntry<AgentEnv> {
  return {
    name: MODEL_POLICY,
    description: "One chat completion of the configured model.",
    internal: true,
    maxInputBytes: MAX_MODEL_INPUT_BYTES,
    inputSchema: {
      type: "object",
      properties: { model: { type: "string" }, messages: { type: "array", items: { type: "object" } }, tools: { type: "array", items: { type: "string" } } },
      required: ["model", "messages"],
      additionalProperties: false,
    },
    run: async (input, ctx) => {
      const names = Array.isArray(input.tools) ? input.tools.filter((name): name is string => typeof name === "string") : [];
      const tools = registry.tools(names).map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema }));
      const reply = await ctx.env.chat.model.complete({
        model: String(input.model),
        messages: input.messages as unknown as ChatMessage[],
        ...(tools.length > 0 ? { tools } : {}),
        temperature: ctx.env.chat.temperature,
        signal: ctx.signal,
        idempotencyKey: ctx.identity?.idempotencyKey,
      });
      return toRecordedJson(reply);
    },
  };
}

export const asJsonMessages = (messages: readonly ChatMessage[]) => messages as unknown as JsonObject[];
