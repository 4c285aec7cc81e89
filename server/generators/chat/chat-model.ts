/**
 * One chat-completion call to an OpenAI-compatible endpoint, as the generators need it. The
 * implementation (openai-chat-model.ts) retries timeouts, 429 and 5xx with bounded backoff and
 * throws CallFailedError (recorded as error-as-data by the CallLedger) when it finally fails.
 * A ChatReply is plain JSON so the ledger can store it and hand it back on replay.
 */
import type { JsonObject } from "../../engine";

export type ChatRole = "system" | "user" | "assistant" | "tool";

export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  /** The JSON text of the arguments, exactly as the model wrote it (it may be malformed). */
  readonly arguments: string;
}

export type ChatMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string | null; readonly toolCalls?: readonly ChatToolCall[] }
  | { readonly role: "tool"; readonly toolCallId: string; readonly content: string };

export interface ChatTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's input. */
  readonly parameters: JsonObject;
}

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ChatTool[];
  readonly temperature?: number;
  /** Streams the reply and hands each text delta here as it arrives. */
  readonly onToken?: (token: string) => void;
  /**
   * Sent as the `Idempotency-Key` header of every attempt (retries included): the ledger's key for
   * this call, so a provider or proxy can deduplicate a request repeated after a crash.
   */
  readonly idempotencyKey?: string;
  /** Aborts the call and its retries at once; `complete` then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface ChatUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

export interface ChatReply {
  readonly content: string;
  readonly toolCalls: readonly ChatToolCall[];
  /** The model that answered, as the endpoint reports it. */
  readonly model: string;
  readonly usage: ChatUsage | null;
  readonly latencyMs: number;
  readonly finishReason: string | null;
  /** The reply was longer than the configured maximum and was cut off. */
  readonly truncated: boolean;
  /** The configured maximum (content plus tool-call text, in UTF-8 bytes), for saying where a reply was cut. */
  readonly maxReplyBytes?: number;
  /** How many HTTP attempts it took (1 when the first succeeded). */
  readonly attempts: number;
}

export interface ChatModel {
  /** @throws CallFailedError when the endpoint fails for good (after retries). */
  complete(request: ChatRequest): Promise<ChatReply>;
}
