/**
 * Seals short secrets (model endpoints' API keys) for storage with AES-256-GCM: a fresh 96-bit
 * nonce per seal, the 128-bit tag checked on open, and `context` (the row the secret belongs to)
 * bound as additional data, so a sealed value copied onto another row does not open there.
 * Sealed form: "v1.<nonce>.<tag>.<ciphertext>", each part base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;

/** A sealed value that does not open: another key sealed it, or it was changed. */
export class SecretBoxError extends Error {
  override readonly name = "SecretBoxError";
}

function checkKey(key: Buffer): void {
  if (key.length !== SECRET_KEY_BYTES) throw new Error(`the encryption key must be ${SECRET_KEY_BYTES} bytes, got ${key.length}`);
}

export function sealSecret(plaintext: string, key: Buffer, context: string): string {
  checkKey(key);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** @throws SecretBoxError when the value is malformed, sealed with another key or context, or tampered with. */
export function openSecret(sealed: string, key: Buffer, context: string): string {
  checkKey(key);
  const parts = sealed.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError("the stored key is not in a format this version can read");
  const [nonce, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, "base64url")) as [Buffer, Buffer, Buffer];
  if (nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError("the stored key is not in a format this version can read");
  const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError("the stored key cannot be decrypted: the encryption key changed since it was saved, or the stored value was altered");
  }
}
