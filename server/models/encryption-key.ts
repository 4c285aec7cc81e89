/**
 * The key that seals model endpoints' API keys, derived with HKDF-SHA256 from a secret the
 * deployment already has: DUALSTATE_SECRET_KEY when set, else the auth secret
 * (DUALSTATE_AUTH_SECRET, or the one generated on first start and kept in the database), so a
 * new installation needs no extra configuration. Changing the secret makes stored keys
 * unreadable; they must then be entered again.
 */
import { hkdfSync } from "node:crypto";
import { SECRET_KEY_BYTES } from "./secret-box";

const SALT = "dualstate";
const INFO = "model-endpoint-api-key/v1";

export function deriveEncryptionKey(secret: string): Buffer {
  if (secret.length === 0) throw new Error("the secret to derive the encryption key from is empty");
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), SALT, INFO, SECRET_KEY_BYTES));
}

export interface SecretSources {
  readonly DUALSTATE_SECRET_KEY?: string;
  readonly DUALSTATE_AUTH_SECRET?: string;
}

/**
 * The configured secret, or undefined when the auth secret lives in the database (the caller
 * reads it there: server/auth/auth-secret.ts creates it, the worker only reads it).
 */
export function configuredSecret(env: SecretSources): string | undefined {
  return env.DUALSTATE_SECRET_KEY ?? env.DUALSTATE_AUTH_SECRET;
}
