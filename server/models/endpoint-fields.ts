/**
 * The fields of a model endpoint as people enter them, validated once here and used by the API
 * schemas and the services alike. Everything is bounded: these values reach HTTP requests.
 */
import { z } from "zod";

/** The endpoint configured by OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL; no stored endpoint may take this name. */
export const ENVIRONMENT_ENDPOINT_NAME = "environment";

export const endpointNameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must start with a letter or digit and hold only letters, digits, '.', '_' and '-'")
  .refine((name) => name.toLowerCase() !== ENVIRONMENT_ENDPOINT_NAME, { message: `"${ENVIRONMENT_ENDPOINT_NAME}" is the endpoint set by OPENAI_BASE_URL; choose another name` });

export const endpointBaseUrlSchema = z
  .string()
  .trim()
  .max(2048, "must be at most 2048 characters")
  .pipe(z.url({ protocol: /^https?$/, message: "must be an http:// or https:// URL such as http://localhost:11434/v1" }))
  .refine((url) => !new URL(url).username && !new URL(url).password, { message: "must not carry a user name or password; enter the key as the API key" });

export const modelNameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .regex(/^[^\s\p{Cc}]+$/u, "must not contain spaces or control characters");

export const apiKeySchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(4096, "must be at most 4096 characters")
  .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces");

/** What a list may show of a key: whether it is set and, for long keys, its last four characters. */
export function apiKeyHint(apiKey: string): string | null {
  return apiKey.length >= 16 ? apiKey.slice(-4) : null;
}
