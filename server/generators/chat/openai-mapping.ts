import type OpenAI from "openai";
import type { ChatMessage, ChatTool } from "./chat-model";

type SdkMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type SdkTool = OpenAI.Chat.Completions.ChatCompletionTool;

/** Our provider-neutral messages in the SDK's wire shape (snake_case, tool calls as functions). */
export function toSdkMessages(messages: readonly ChatMessage[]): SdkMessage[] {
  return messages.map((message): SdkMessage => {
    switch (message.role) {
      case "tool":
        return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
      case "assistant":
        return {
          role: "assistant",
          content: message.content,
          ...(message.toolCalls && message.toolCalls.length > 0
            ? { tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: "function" as const, function: { name: call.name, arguments: call.arguments } })) }
            : {}),
        };
      default:
        return { role: message.role, content: message.content };
    }
  });
}

export function toSdkTools(tools: readonly ChatTool[]): SdkTool[] {
  return tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}
