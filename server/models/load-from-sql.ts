import { AUTH_SECRET_SETTING } from "../auth/auth-secret";
import type { SqlExecutor } from "../persistence/sql/sql-client";
import { configuredSecret, deriveEncryptionKey } from "./encryption-key";
import { buildModelDirectory, environmentEndpoint, type ModelDirectory } from "./model-directory";
import type { ModelSettingsEnv } from "./load-from-prisma";

interface EndpointRow {
  readonly id: string;
  readonly name: string;
  readonly baseUrl: string;
  readonly apiKeyCiphertext: string | null;
  readonly defaultModel: string | null;
  readonly isDefault: boolean | number;
  [column: string]: unknown;
}

/**
 * The model directory as a worker reads it, per turn, through its own SQL connection (workers are
 * separate processes without Prisma). Only reads: the web server creates the auth secret.
 */
export async function loadModelDirectoryFromSql(sql: SqlExecutor, env: ModelSettingsEnv): Promise<ModelDirectory> {
  const rows = await sql.query<EndpointRow>(`SELECT "id", "name", "baseUrl", "apiKeyCiphertext", "defaultModel", "isDefault" FROM "ModelEndpoint" ORDER BY "name"`);
  let key: Buffer | undefined;
  if (rows.some((row) => row.apiKeyCiphertext !== null)) {
    let secret = configuredSecret(env);
    if (secret === undefined) {
      const [setting] = await sql.query<{ value: string }>(`SELECT "value" FROM "Setting" WHERE "key" = ?`, [AUTH_SECRET_SETTING]);
      secret = setting?.value;
    }
    key = secret ? deriveEncryptionKey(secret) : undefined;
  }
  // SQLite stores booleans as 0/1.
  return buildModelDirectory(rows.map((row) => ({ ...row, isDefault: Boolean(row.isDefault) })), key, environmentEndpoint(env));
}
