/**
 * The model endpoints a process can use, as one plain list: those stored under Admin → Models
 * (their keys opened) and the one the environment configures (OPENAI_*). Built fresh for each
 * run start and each worker turn, so a change in Settings applies to the next run.
 */
import { ENVIRONMENT_ENDPOINT_NAME } from "./endpoint-fields";
import { openSecret, SecretBoxError } from "./secret-box";

export interface DirectoryEndpoint {
  readonly name: string;
  readonly source: "settings" | "environment";
  /** Absent only for the environment endpoint without OPENAI_BASE_URL: the SDK's default (OpenAI). */
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly defaultModel?: string;
  /** Used by steps that name no endpoint (see defaultEndpoint). */
  readonly isDefault: boolean;
  /** Why the endpoint cannot be used, e.g. its stored key no longer decrypts. */
  readonly unusable?: string;
}

export interface ModelDirectory {
  readonly endpoints: readonly DirectoryEndpoint[];
}

/** A ModelEndpoint row as both readers (Prisma, the worker's SQL) return it. */
export interface StoredEndpointRow {
  readonly id: string;
  readonly name: string;
  readonly baseUrl: string;
  readonly apiKeyCiphertext: string | null;
  readonly defaultModel: string | null;
  readonly isDefault: boolean;
}

export interface EnvironmentModelSettings {
  readonly OPENAI_BASE_URL?: string;
  readonly OPENAI_API_KEY?: string;
  readonly OPENAI_MODEL?: string;
}

/** The endpoint OPENAI_BASE_URL / OPENAI_API_KEY configure, or none when neither is set. */
export function environmentEndpoint(env: EnvironmentModelSettings): DirectoryEndpoint | undefined {
  if (!env.OPENAI_BASE_URL && !env.OPENAI_API_KEY) return undefined;
  return { name: ENVIRONMENT_ENDPOINT_NAME, source: "environment", baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, defaultModel: env.OPENAI_MODEL, isDefault: false };
}

/**
 * Stored rows plus the environment's endpoint. `encryptionKey` is undefined when no secret to
 * derive it from exists yet; rows with a key are then unusable, as are rows whose key does not open.
 */
export function buildModelDirectory(rows: readonly StoredEndpointRow[], encryptionKey: Buffer | undefined, environment: DirectoryEndpoint | undefined): ModelDirectory {
  const stored = rows.map((row): DirectoryEndpoint => {
    const endpoint = { name: row.name, source: "settings" as const, baseURL: row.baseUrl, defaultModel: row.defaultModel ?? undefined, isDefault: row.isDefault };
    if (row.apiKeyCiphertext === null) return endpoint;
    if (!encryptionKey) return { ...endpoint, unusable: "its API key cannot be decrypted: no encryption secret is available; enter the key again" };
    try {
      return { ...endpoint, apiKey: openSecret(row.apiKeyCiphertext, encryptionKey, row.id) };
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      return { ...endpoint, unusable: `${error.message}; enter the key again under Admin → Models` };
    }
  });
  return { endpoints: environment ? [...stored, environment] : stored };
}

/** Steps that name no endpoint use the one marked default in Settings, else the environment's. */
export function defaultEndpoint(directory: ModelDirectory): DirectoryEndpoint | undefined {
  return directory.endpoints.find((endpoint) => endpoint.source === "settings" && endpoint.isDefault) ?? directory.endpoints.find((endpoint) => endpoint.source === "environment");
}
