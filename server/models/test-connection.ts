/**
 * "Test connection": asks an endpoint for its model list (GET /models through the openai client)
 * with a short timeout, no retries and a bounded body, and says in plain words what happened.
 * Nothing from the endpoint is trusted: its error text is cut and stripped of control characters.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { cappedFetch } from "../generators/chat/capped-fetch";
import { ResponseTooLargeError } from "../generators/chat/retry-policy";

export const CONNECTION_TEST_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_LISTED_MODELS = 20;

export interface ConnectionTarget {
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly defaultModel?: string;
}

export type ConnectionTestResult =
  | {
      readonly ok: true;
      readonly modelCount: number;
      /** null when the endpoint has no default model to look for. */
      readonly defaultModelListed: boolean | null;
      /** The first few model ids, for choosing a default. */
      readonly models: readonly string[];
      readonly message: string;
    }
  | { readonly ok: false; readonly message: string };

/** Endpoint text as safe, short, single-line words. */
function clean(text: string, max = 200): string {
  const line = text.replace(/\p{Cc}+/gu, " ").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function describeFailure(error: unknown, target: string, timeoutMs: number): string {
  if (error instanceof APIConnectionTimeoutError) return `${target} did not answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
  if (error instanceof ResponseTooLargeError || (error instanceof APIConnectionError && error.cause instanceof ResponseTooLargeError)) return `${target} sent more than ${MAX_BODY_BYTES / 1024 / 1024} MiB in answer to the model list; stopped reading`;
  if (error instanceof APIConnectionError) {
    const cause = error.cause as (Error & { code?: string; cause?: { code?: string; message?: string } }) | undefined;
    const code = cause?.code ?? cause?.cause?.code;
    const why = code === "ECONNREFUSED" ? "the connection was refused (is the server running?)" : code === "ENOTFOUND" ? "the host name was not found" : clean(cause?.cause?.message ?? cause?.message ?? error.message);
    return `could not connect to ${target}: ${why}`;
  }
  if (error instanceof APIError && typeof error.status === "number") {
    const said = clean(error.message.replace(/^\d{3}\s*/, ""));
    if (error.status === 401 || error.status === 403) return `${target} refused the API key (${error.status}${said ? `: ${said}` : ""})`;
    if (error.status === 404) return `${target} has no model list (404): check that the base URL is the API's root, usually ending in /v1`;
    return `${target} answered with status ${error.status}${said ? `: ${said}` : ""}`;
  }
  if (error instanceof SyntaxError) return `${target} answered with something that is not JSON; is the base URL an OpenAI-compatible API (usually ending in /v1)?`;
  return `${target} could not be read: ${clean(error instanceof Error ? error.message : String(error))}`;
}

/** The ids in the body the endpoint sent (the SDK's page turns a missing list into an empty one). */
function modelIds(page: unknown): string[] | undefined {
  const body = (page as { body?: unknown } | null)?.body;
  const data = typeof body === "object" && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return undefined;
  return data.flatMap((entry) => (typeof (entry as { id?: unknown } | null)?.id === "string" ? [(entry as { id: string }).id] : []));
}

export async function testConnection(target: ConnectionTarget, options: { timeoutMs?: number } = {}): Promise<ConnectionTestResult> {
  const timeoutMs = options.timeoutMs ?? CONNECTION_TEST_TIMEOUT_MS;
  const client = new OpenAI({ baseURL: target.baseURL, apiKey: target.apiKey ?? "unset", maxRetries: 0, timeout: timeoutMs, fetch: cappedFetch(MAX_BODY_BYTES) });
  const where = `GET ${client.baseURL.replace(/\/+$/, "")}/models`;
  let ids: string[] | undefined;
  try {
    // The first page only: an endpoint cannot keep the test paging.
    ids = modelIds(await client.models.list());
  } catch (error) {
    return { ok: false, message: describeFailure(error, where, timeoutMs) };
  }
  if (!ids) return { ok: false, message: `${where} answered, but not with a model list (no "data" array); is the base URL an OpenAI-compatible API?` };
  const defaultModelListed = target.defaultModel ? ids.includes(target.defaultModel) : null;
  const count = `${ids.length} model${ids.length === 1 ? "" : "s"}`;
  const about = target.defaultModel ? (defaultModelListed ? `, including the default model "${target.defaultModel}"` : `; the default model "${target.defaultModel}" is not among them`) : "";
  return { ok: true, modelCount: ids.length, defaultModelListed, models: ids.slice(0, MAX_LISTED_MODELS).map((id) => clean(id, 200)), message: `Connected: ${where} lists ${count}${about}.` };
}
