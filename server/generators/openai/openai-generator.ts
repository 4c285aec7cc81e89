import { requestPrompt, type Generator, type GenerationRequest, type JsonObject } from "../../engine";
import type { ChatMessage, ChatModel } from "../chat/chat-model";
import { cutShortFeedback, readRecordedReply, toRecordedJson } from "../chat/recorded-reply";
import { modelCallFailed } from "../errors";
import { extractArtifact, type ExtractMode } from "./extract-artifact";

export interface TokenEvent {
  readonly stepName: string;
  readonly attempt: number;
  readonly token: string;
}

export interface OpenAiGeneratorOptions {
  readonly model: ChatModel;
  readonly modelName: string;
  /** "code" takes the first fenced block of the reply; "text" keeps the reply whole. */
  readonly extract?: ExtractMode;
  readonly temperature?: number;
  /** Sent before the prompt when given; 001's generator sends the prompt alone. */
  readonly systemPrompt?: string;
  /** Streams the reply and reports each token (live progress); not called for a replayed call. */
  readonly onToken?: (event: TokenEvent) => void;
}

/**
 * 001's single-call generator (LiteLLMGenerator) on an OpenAI-compatible endpoint: one model call
 * per attempt, made through the run's CallLedger so a re-run replays it instead of calling (and
 * paying for) the model again (002 section 7). A call that failed for good is in the ledger as
 * data and ends the attempt with a GenerationFailedError.
 */
export function createOpenAiGenerator(options: OpenAiGeneratorOptions): Generator {
  const mode = options.extract ?? "code";
  return {
    async generate(request) {
      const prompt = requestPrompt(request);
      const messages: ChatMessage[] = [
        ...(options.systemPrompt ? [{ role: "system" as const, content: options.systemPrompt }] : []),
        { role: "user", content: prompt },
      ];
      const outcome = await request.calls.call(
        `${request.callKey}/model`,
        { actor: "assistant", policy: "model", payload: { model: options.modelName, messages: messages as unknown as JsonObject[] } },
        async (identity) =>
          toRecordedJson(
            await options.model.complete({
              model: options.modelName,
              messages,
              temperature: options.temperature,
              onToken: tokenListener(options, request),
              signal: request.signal,
              idempotencyKey: identity?.idempotencyKey,
            }),
          ),
      );
      if (!outcome.ok) throw modelCallFailed(outcome.error);
      const reply = readRecordedReply(outcome.result);
      const incomplete = cutShortFeedback(reply);
      return {
        // A truncated reply is already cut to the model's maxReplyBytes, so what is kept stays bounded;
        // it is kept for the record, and the engine fails the attempt with `incomplete`.
        content: extractArtifact(reply.content, mode),
        ...(incomplete ? { incomplete } : {}),
        metadata: {
          generator: "openai",
          model: options.modelName,
          prompt,
          usage: reply.usage,
          latencyMs: reply.latencyMs,
          attempts: reply.attempts,
          truncated: reply.truncated,
          finishReason: reply.finishReason,
          replayed: outcome.replayed,
        },
      };
    },
  };
}

function tokenListener(options: OpenAiGeneratorOptions, request: GenerationRequest) {
  const onToken = options.onToken;
  if (!onToken) return undefined;
  return (token: string) => onToken({ stepName: request.stepName, attempt: request.attempt, token });
}
