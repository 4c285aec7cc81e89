import { getEnv } from "@/server/env";
import { ENVIRONMENT_ENDPOINT_NAME } from "@/server/models/endpoint-fields";
import { loadModelDirectory, type ModelSettingsEnv } from "@/server/models/load-from-prisma";
import { testConnection, type ConnectionTestResult } from "@/server/models/test-connection";
import type { Db } from "@/server/persistence/db";
import { invalidInput, notFound } from "../errors";

/**
 * What to test: a stored endpoint (`id`, or "environment"), optionally with the form's unsaved
 * base URL, key or default model over it; or a new endpoint's values alone.
 */
export interface ConnectionTestInput {
  readonly id?: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly defaultModel?: string;
}

export async function testModelEndpoint(db: Db, input: ConnectionTestInput, settings: ModelSettingsEnv = getEnv()): Promise<ConnectionTestResult> {
  let stored: { baseURL?: string; apiKey?: string; defaultModel?: string } = {};
  if (input.id !== undefined) {
    const name = input.id === ENVIRONMENT_ENDPOINT_NAME ? ENVIRONMENT_ENDPOINT_NAME : (await db.modelEndpoint.findUnique({ where: { id: input.id }, select: { name: true } }))?.name;
    const endpoint = name === undefined ? undefined : (await loadModelDirectory(db, settings)).endpoints.find((candidate) => candidate.name === name);
    if (!endpoint) throw notFound("Model endpoint", input.id);
    // A key that no longer opens is not sent; the form's new key replaces it.
    if (endpoint.unusable && input.apiKey === undefined) return { ok: false, message: `Endpoint "${endpoint.name}" cannot be used: ${endpoint.unusable}` };
    stored = endpoint;
  } else if (input.baseUrl === undefined) {
    throw invalidInput("baseUrl", "is required to test an endpoint that is not saved");
  }
  return testConnection({ baseURL: input.baseUrl ?? stored.baseURL, apiKey: input.apiKey ?? stored.apiKey, defaultModel: input.defaultModel ?? stored.defaultModel });
}
