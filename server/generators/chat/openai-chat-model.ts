import OpenAI from "openai";
import { abortableSleep, CallFailedError } from "../../engine";
import type { ChatModel, ChatReply } from "./chat-model";
import { cappedFetch } from "./capped-fetch";
import { attempt } from "./openai-attempt";
import { classify, retryDelay, type ChatFailure } from "./retry-policy";

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_MAX_REPLY_BYTES = 256 * 1024;
/** A Retry-After longer than this is shortened to it: a run should not stall an hour on one header. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
/**
 * The whole call, every attempt and wait included, ends within this: with timeout_ms up to 10
 * minutes and up to 10 retries, a run could otherwise wait on one call for hours.
 */
export const DEFAULT_MAX_TOTAL_MS = 15 * 60_000;
/** Reading a non-streamed body stops here; below it, the content is cut to maxReplyBytes. */
const MIN_MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface OpenAiChatModelOptions {
  /** An OpenAI-compatible endpoint ending in /v1 (OpenAI, Ollama, vLLM, LiteLLM...). Defaults to the SDK's (OPENAI_BASE_URL or OpenAI). */
  readonly baseURL?: string;
  /** Local servers accept any key; the SDK refuses to start without one, hence "unset". */
  readonly apiKey?: string;
  /** Per attempt, for the whole exchange (streamed bodies included). */
  readonly timeoutMs?: number;
  /** Retries after the first attempt, for transient failures only. */
  readonly maxRetries?: number;
  /** Content (plus tool-call arguments) kept from one reply, in UTF-8 bytes; more is cut off and marked truncated. */
  readonly maxReplyBytes?: number;
  readonly backoff?: { readonly baseMs?: number; readonly maxMs?: number };
  readonly maxRetryAfterMs?: number;
  /** The whole call's limit, retries and backoff included. */
  readonly maxTotalMs?: number;
  /** Injected by tests to record the waits instead of sleeping; rejects when the signal aborts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The ChatModel over the official `openai` client. The SDK's own retries are off so that the
 * policy is ours, visible and tested: transient failures (timeouts, dropped connections, 429,
 * 5xx, malformed bodies) are retried with capped exponential backoff and jitter, honouring the
 * endpoint's Retry-After up to maxRetryAfterMs; permanent ones (auth, bad request) are not.
 * A final failure is a CallFailedError, which the CallLedger records as data.
 */
export function createOpenAiChatModel(options: OpenAiChatModelOptions = {}): ChatModel {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const limits = { timeoutMs, maxReplyBytes, maxBodyBytes: Math.max(MIN_MAX_BODY_BYTES, 8 * maxReplyBytes) };
  const backoff = {
    baseMs: options.backoff?.baseMs ?? 500,
    maxMs: options.backoff?.maxMs ?? 8_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
  };
  const sleep = options.sleep ?? abortableSleep;
  const maxTotalMs = options.maxTotalMs ?? DEFAULT_MAX_TOTAL_MS;
  const client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey ?? "unset", maxRetries: 0, timeout: timeoutMs, fetch: cappedFetch(limits.maxBodyBytes) });
  const endpoint = `POST ${client.baseURL.replace(/\/+$/, "")}/chat/completions`;

  return {
    async complete(request): Promise<ChatReply> {
      // latencyMs is the whole call as the run experienced it: retries and backoff included.
      const started = performance.now();
      const deadline = started + maxTotalMs;
      for (let attempts = 1; ; attempts++) {
        request.signal?.throwIfAborted();
        try {
          const reply = await attempt(client, request, { ...limits, timeoutMs: Math.max(1, Math.min(timeoutMs, Math.round(deadline - performance.now()))) });
          // An aborted stream ends quietly with what it had: a cut reply, never returned as the answer.
          request.signal?.throwIfAborted();
          return { ...reply, maxReplyBytes, latencyMs: Math.round(performance.now() - started), attempts };
        } catch (error) {
          // An abort (cancel, shutdown) is not the endpoint's failure: never recorded as the call's result.
          if (request.signal?.aborted) throw request.signal.reason;
          const failure = classify(error);
          if (!failure.retryable || attempts > maxRetries) throw new CallFailedError(failure.code, describe(endpoint, failure, attempts));
          const delay = retryDelay(attempts, failure, backoff);
          if (performance.now() + delay >= deadline) {
            throw new CallFailedError(failure.code, `${describe(endpoint, failure, attempts)}; stopped: the call's total time limit of ${Math.round(maxTotalMs / 1000)} s was reached`);
          }
          await sleep(delay, request.signal);
        }
      }
    },
  };
}

function describe(endpoint: string, failure: ChatFailure, attempts: number): string {
  const outcome = failure.status !== undefined ? `answered HTTP ${failure.status}` : `failed (${failure.code.toLowerCase()})`;
  const tries = failure.retryable ? `gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}` : `not retried, ${failure.code} is permanent; ${attempts} attempt${attempts === 1 ? "" : "s"}`;
  return `${endpoint} ${outcome}: ${failure.detail} (${tries})`;
}
