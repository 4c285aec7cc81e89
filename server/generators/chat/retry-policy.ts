import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";

/** The codes a failed model call is recorded under (CallError.code in the ledger). */
export type ChatFailureCode = "RATE_LIMITED" | "TIMEOUT" | "SERVER_ERROR" | "CONNECTION" | "BAD_REQUEST" | "AUTH" | "MALFORMED_RESPONSE" | "RESPONSE_TOO_LARGE";

export interface ChatFailure {
  readonly code: ChatFailureCode;
  readonly retryable: boolean;
  /** The HTTP status, when the endpoint answered with one. */
  readonly status?: number;
  /** What the endpoint or the network said. */
  readonly detail: string;
  /** The delay the endpoint asked for (Retry-After), before our cap. */
  readonly retryAfterMs?: number;
}

/** A 200 whose body is not a chat completion we can read. */
export class MalformedResponseError extends Error {
  override readonly name = "MalformedResponseError";
}

/** A non-streamed body so large we stopped reading it (far beyond any reply we would keep). */
export class ResponseTooLargeError extends Error {
  override readonly name = "ResponseTooLargeError";
}

/** Our own per-attempt deadline fired (it also covers reading a streamed body, which the SDK's timeout does not). */
export class AttemptTimeoutError extends Error {
  override readonly name = "AttemptTimeoutError";
}

/**
 * Sorts a failure into retry or give up. Transient: timeouts, dropped connections, 408/409
 * (OpenAI's own client retries those too), 429 and 5xx. Malformed 200 bodies are retried as
 * well: in practice they come from a proxy or load balancer cutting a body short, and a broken
 * server costs only maxRetries more calls. Every other 4xx is our request's fault and would fail
 * the same way again.
 */
export function classify(error: unknown): ChatFailure {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof AttemptTimeoutError || error instanceof APIConnectionTimeoutError) return { code: "TIMEOUT", retryable: true, detail };
  // Not retried: the same prompt would most likely produce the same runaway body.
  if (error instanceof ResponseTooLargeError) return { code: "RESPONSE_TOO_LARGE", retryable: false, detail };
  if (error instanceof MalformedResponseError || error instanceof SyntaxError) return { code: "MALFORMED_RESPONSE", retryable: true, detail };
  if (error instanceof APIError && typeof error.status === "number") return classifyStatus(error.status, error.headers, detail);
  // An error event inside a 200 stream: the server failed mid-reply, like a 5xx would.
  if (error instanceof APIError && !(error instanceof APIConnectionError)) return { code: "SERVER_ERROR", retryable: true, detail };
  // APIConnectionError, undici's "terminated"/ECONNRESET while reading a body, and anything else
  // from the transport: the request may not have reached the model, so trying again is safe.
  return { code: "CONNECTION", retryable: true, detail: error instanceof APIConnectionError && error.cause instanceof Error ? `${detail} (${error.cause.message})` : detail };
}

function classifyStatus(status: number, headers: Headers | undefined, detail: string): ChatFailure {
  const retryAfterMs = parseRetryAfter(headers);
  if (status === 429) return { code: "RATE_LIMITED", retryable: true, status, detail, retryAfterMs };
  if (status >= 500) return { code: "SERVER_ERROR", retryable: true, status, detail, retryAfterMs };
  if (status === 408) return { code: "TIMEOUT", retryable: true, status, detail, retryAfterMs };
  if (status === 409) return { code: "SERVER_ERROR", retryable: true, status, detail, retryAfterMs };
  if (status === 401 || status === 403) return { code: "AUTH", retryable: false, status, detail };
  return { code: "BAD_REQUEST", retryable: false, status, detail };
}

/** Retry-After as milliseconds: `retry-after-ms` (OpenAI), then `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface BackoffOptions {
  readonly baseMs: number;
  readonly maxMs: number;
  /** Upper bound on an endpoint-requested Retry-After; a server asking for an hour gets this. */
  readonly maxRetryAfterMs: number;
  readonly random?: () => number;
}

/**
 * How long to wait before retry number `retry` (1-based). The endpoint's Retry-After wins when it
 * gives one (capped: a run must not stall for an hour on one header). Otherwise exponential
 * backoff capped at maxMs, with "equal jitter" (half fixed, half random) so that parallel runs
 * hitting the same rate limit do not retry in lockstep, yet each wait stays at least half the
 * nominal delay.
 */
export function retryDelay(retry: number, failure: ChatFailure, options: BackoffOptions): number {
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, options.maxRetryAfterMs);
  const nominal = Math.min(options.maxMs, options.baseMs * 2 ** (retry - 1));
  return Math.round(nominal / 2 + (options.random ?? Math.random)() * (nominal / 2));
}
