import { authSecret } from "@/server/auth/auth-secret";
import type { Db } from "@/server/persistence/db";
import { configuredSecret, deriveEncryptionKey, type SecretSources } from "./encryption-key";
import { buildModelDirectory, environmentEndpoint, type EnvironmentModelSettings, type ModelDirectory } from "./model-directory";

export type ModelSettingsEnv = SecretSources & EnvironmentModelSettings;

/** The key stored endpoints' API keys are sealed with; creates the auth secret when the deployment has none yet. */
export async function encryptionKeyFor(db: Db, env: SecretSources): Promise<Buffer> {
  return deriveEncryptionKey(configuredSecret(env) ?? (await authSecret(db, undefined)));
}

/** The model directory of the dashboard and the CLI (Prisma). The worker reads the same rows with SQL (load-from-sql.ts). */
export async function loadModelDirectory(db: Db, env: ModelSettingsEnv): Promise<ModelDirectory> {
  const rows = await db.modelEndpoint.findMany({ select: { id: true, name: true, baseUrl: true, apiKeyCiphertext: true, defaultModel: true, isDefault: true }, orderBy: { name: "asc" } });
  const needsKey = rows.some((row) => row.apiKeyCiphertext !== null);
  return buildModelDirectory(rows, needsKey ? await encryptionKeyFor(db, env) : undefined, environmentEndpoint(env));
}
