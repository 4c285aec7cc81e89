import type OpenAI from "openai";
import type { ChatMessage, ChatTool, ChatToolCall, ChatUsage } from "./chat-model";
import { MalformedResponseError } from "./retry-policy";

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

export function fromSdkUsage(usage: OpenAI.CompletionUsage | null | undefined): ChatUsage | null {
  if (!usage) return null;
  return { promptTokens: usage.prompt_tokens ?? 0, completionTokens: usage.completion_tokens ?? 0, totalTokens: usage.total_tokens ?? 0 };
}

/** What a completion body holds for us, before the size cap is applied. */
export interface RawReply {
  readonly content: string;
  readonly toolCalls: ChatToolCall[];
  readonly model: string;
  readonly usage: ChatUsage | null;
  readonly finishReason: string | null;
}

/**
 * Reads a non-streamed completion body. We parse it ourselves (the SDK would buffer any size),
 * so its shape is checked here: a 200 without a first choice is a malformed response.
 */
export function fromCompletionBody(text: string, requestedModel: string): RawReply {
  let body: OpenAI.Chat.Completions.ChatCompletion;
  try {
    body = JSON.parse(text) as OpenAI.Chat.Completions.ChatCompletion;
  } catch {
    throw new MalformedResponseError(`the body is not JSON (${text.length} characters, starting ${JSON.stringify(text.slice(0, 60))})`);
  }
  const choice = body?.choices?.[0];
  if (!choice?.message) throw new MalformedResponseError(`the body has no choices[0].message (${JSON.stringify(text.slice(0, 120))})`);
  // Read by shape, not by `type`: some servers omit the type, and older Ollama omits the id,
  // which the tool's answer must still name.
  const toolCalls = (choice.message.tool_calls ?? []).flatMap((call, index): ChatToolCall[] =>
    "function" in call && call.function ? [{ id: call.id || `call_${index + 1}`, name: call.function.name, arguments: call.function.arguments ?? "" }] : [],
  );
  return {
    content: choice.message.content ?? "",
    toolCalls,
    model: body.model ?? requestedModel,
    usage: fromSdkUsage(body.usage),
    finishReason: choice.finish_reason ?? null,
  };
}
