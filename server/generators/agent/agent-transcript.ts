import { callOf, type JsonObject, type Step } from "../../engine";
import type { ChatMessage } from "../chat/chat-model";
import { readRecordedReply } from "../chat/recorded-reply";
import { MODEL_POLICY } from "./model-policy";

/**
 * The conversation so far, read from the assistant's own ledger (002 section 6.1): each model
 * reply that asked for tools is an assistant message, and each tool's result (its error as data
 * included) a tool message answering the call it was caused by, under the model's call id.
 */
export function transcriptOf(ledger: Iterable<Step>): ChatMessage[] {
  const byId = new Map<string, Step>();
  const messages: ChatMessage[] = [];
  for (const step of ledger) {
    byId.set(step.id, step);
    if (step.type !== "action_result" || step.cause === undefined) continue;
    const call = byId.get(step.cause);
    if (!call) continue;
    const { policy, ref } = callOf(call);
    if (policy === MODEL_POLICY) {
      if (step.payload.error === true) continue;
      const reply = readRecordedReply(step.payload);
      if (reply.toolCalls.length > 0) messages.push({ role: "assistant", content: reply.content || null, toolCalls: reply.toolCalls });
    } else if (ref !== undefined) {
      messages.push({ role: "tool", toolCallId: ref, content: JSON.stringify(step.payload as JsonObject) });
    }
  }
  return messages;
}
