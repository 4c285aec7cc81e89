import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveEncryptionKey } from "./encryption-key";
import { openSecret, sealSecret, SecretBoxError } from "./secret-box";

const key = deriveEncryptionKey("a deployment secret of at least thirty-two characters");

/** Flips one bit of the base64url part at `index` (1 nonce, 2 tag, 3 ciphertext). */
function flipBit(sealed: string, index: number): string {
  const parts = sealed.split(".");
  const bytes = Buffer.from(parts[index] ?? "", "base64url");
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  parts[index] = bytes.toString("base64url");
  return parts.join(".");
}

describe("sealing API keys with AES-256-GCM", () => {
  it("opens what it sealed, and never holds the plaintext in the sealed form", () => {
    const sealed = sealSecret("sk-live-0123456789abcdef", key, "endpoint-1");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("0123456789abcdef");
    expect(openSecret(sealed, key, "endpoint-1")).toBe("sk-live-0123456789abcdef");
  });

  it("uses a fresh nonce for every seal", () => {
    expect(sealSecret("same", key, "e")).not.toBe(sealSecret("same", key, "e"));
  });

  it("detects a changed nonce, tag or ciphertext", () => {
    const sealed = sealSecret("sk-tamper-me", key, "endpoint-1");
    for (const part of [1, 2, 3]) expect(() => openSecret(flipBit(sealed, part), key, "endpoint-1")).toThrow(SecretBoxError);
  });

  it("refuses to open with another key, naming the likely cause", () => {
    const sealed = sealSecret("sk-other", key, "endpoint-1");
    expect(() => openSecret(sealed, deriveEncryptionKey("another secret of at least thirty-two characters"), "endpoint-1")).toThrow(/encryption key changed/);
    expect(() => openSecret(sealed, randomBytes(32), "endpoint-1")).toThrow(SecretBoxError);
  });

  it("binds the value to its row: a sealed key copied to another endpoint does not open", () => {
    const sealed = sealSecret("sk-row-bound", key, "endpoint-1");
    expect(() => openSecret(sealed, key, "endpoint-2")).toThrow(SecretBoxError);
  });

  it("refuses malformed values and keys of the wrong size", () => {
    expect(() => openSecret("sk-plaintext", key, "e")).toThrow(/not in a format/);
    expect(() => openSecret("v1.AA.AA.AA", key, "e")).toThrow(/not in a format/);
    expect(() => sealSecret("x", Buffer.alloc(16), "e")).toThrow(/32 bytes/);
  });

  it("derives the same key from the same secret and different keys from different secrets", () => {
    expect(deriveEncryptionKey("s".repeat(32)).equals(deriveEncryptionKey("s".repeat(32)))).toBe(true);
    expect(deriveEncryptionKey("s".repeat(32)).equals(deriveEncryptionKey("t".repeat(32)))).toBe(false);
    expect(deriveEncryptionKey("s".repeat(32))).toHaveLength(32);
  });
});
