import { getEnv } from "@/server/env";
import { ENVIRONMENT_ENDPOINT_NAME } from "@/server/models/endpoint-fields";
import { loadModelDirectory, type ModelSettingsEnv } from "@/server/models/load-from-prisma";
import { defaultEndpoint } from "@/server/models/model-directory";
import type { Db } from "@/server/persistence/db";

/** The OpenAI SDK's endpoint when OPENAI_BASE_URL is unset. */
const SDK_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/**
 * An endpoint as admins see it. The key is write-only: only whether one is set and, for long
 * keys, its last four characters.
 */
export interface ModelEndpointView {
  readonly id: string;
  readonly name: string;
  readonly source: "settings" | "environment";
  readonly baseUrl: string;
  readonly defaultModel: string | null;
  /** Whether steps that name no endpoint use this one. */
  readonly isDefault: boolean;
  readonly apiKey: { readonly set: boolean; readonly lastFour: string | null };
  /** Why runs cannot use it (its key no longer decrypts), or null. */
  readonly problem: string | null;
  readonly createdBy: string | null;
  readonly updatedBy: string | null;
  readonly updatedAt: Date | null;
}

export async function listModelEndpoints(db: Db, settings: ModelSettingsEnv = getEnv()): Promise<ModelEndpointView[]> {
  const [rows, directory] = await Promise.all([
    db.modelEndpoint.findMany({ orderBy: { name: "asc" }, select: { id: true, name: true, baseUrl: true, apiKeyCiphertext: true, apiKeyHint: true, defaultModel: true, createdBy: true, updatedBy: true, updatedAt: true } }),
    loadModelDirectory(db, settings),
  ]);
  const defaultName = defaultEndpoint(directory)?.name;
  const views = rows.map((row): ModelEndpointView => ({
    id: row.id,
    name: row.name,
    source: "settings",
    baseUrl: row.baseUrl,
    defaultModel: row.defaultModel,
    isDefault: row.name === defaultName,
    apiKey: { set: row.apiKeyCiphertext !== null, lastFour: row.apiKeyHint },
    problem: directory.endpoints.find((endpoint) => endpoint.name === row.name)?.unusable ?? null,
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt,
  }));
  const environment = directory.endpoints.find((endpoint) => endpoint.source === "environment");
  if (!environment) return views;
  return [
    ...views,
    {
      id: ENVIRONMENT_ENDPOINT_NAME,
      name: ENVIRONMENT_ENDPOINT_NAME,
      source: "environment",
      baseUrl: environment.baseURL ?? SDK_DEFAULT_BASE_URL,
      defaultModel: environment.defaultModel ?? null,
      isDefault: environment.name === defaultName,
      // Never even the last characters of a key an operator put in the environment.
      apiKey: { set: Boolean(environment.apiKey), lastFour: null },
      problem: null,
      createdBy: null,
      updatedBy: null,
      updatedAt: null,
    },
  ];
}

/** What anyone may know: whether runs that name no endpoint have a model, and which. */
export async function modelStatus(db: Db, settings: ModelSettingsEnv = getEnv()): Promise<{ configured: boolean; endpoint: string | null; model: string | null }> {
  const directory = await loadModelDirectory(db, settings);
  const endpoint = defaultEndpoint(directory);
  const usable = endpoint && !endpoint.unusable ? endpoint : undefined;
  return { configured: Boolean(usable?.defaultModel), endpoint: usable?.name ?? null, model: usable?.defaultModel ?? null };
}
