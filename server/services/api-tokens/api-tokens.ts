import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "@/server/persistence/db";
import type { Actor, Role } from "@/server/api/trpc";
import { invalidInput, notFound } from "@/server/services/errors";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";

const TOKEN_PREFIX = "dst_";
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Every new token expires, within a year: a token outlives the script it was made for, and a
 * forgotten one should stop working on its own. (Tokens made before expiries existed have none.)
 */
export const MAX_TOKEN_DAYS = 365;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

export interface NewApiToken {
  readonly userId: string;
  readonly name: string;
  readonly expiresAt: Date;
}

/** Creates a token for a user; the plain token is returned this once and stored only as its hash. */
export async function createApiToken(db: Db, input: NewApiToken, by: Actor, now = new Date()) {
  if (input.expiresAt.getTime() <= now.getTime()) throw invalidInput("expiresAt", "must be in the future");
  if (input.expiresAt.getTime() > now.getTime() + MAX_TOKEN_DAYS * DAY_MS) throw invalidInput("expiresAt", `must be at most ${MAX_TOKEN_DAYS} days from now`);
  const user = await db.user.findUnique({ where: { id: input.userId } });
  if (!user) throw notFound("User", input.userId);
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const id = randomUUID();
  const name = input.name.trim();
  await db.$transaction(async (tx) => {
    await tx.apiToken.create({ data: { id, name, tokenHash: hashOf(token), prefix: token.slice(0, TOKEN_PREFIX.length + 6), userId: user.id, createdBy: by.email, expiresAt: input.expiresAt } });
    await recordAuditEvent(tx, { actor: by, action: "token.created", target: `token:${id}`, detail: { name, for: user.email, expiresAt: input.expiresAt.toISOString() } });
  });
  return { id, token, prefix: token.slice(0, TOKEN_PREFIX.length + 6), expiresAt: input.expiresAt };
}

export async function listApiTokens(db: Db) {
  const tokens = await db.apiToken.findMany({ orderBy: { createdAt: "desc" }, include: { user: { select: { email: true, role: true } } } });
  return tokens.map(({ tokenHash: _hash, ...token }) => token);
}

export async function revokeApiToken(db: Db, tokenId: string, by: Actor) {
  await db.$transaction(async (tx) => {
    const token = await tx.apiToken.findUnique({ where: { id: tokenId } });
    if (!token) throw notFound("API token", tokenId);
    if (token.revokedAt) return;
    await tx.apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date() } });
    await recordAuditEvent(tx, { actor: by, action: "token.revoked", target: `token:${tokenId}`, detail: { name: token.name } });
  });
}

/** Who a bearer token stands for; when it stands for nobody, why, if the holder may know (null: unknown token). */
export type TokenCheck = { readonly actor: Actor; readonly problem?: undefined } | { readonly actor: null; readonly problem: string | null };

export async function checkApiToken(db: Db, token: string, now = new Date()): Promise<TokenCheck> {
  if (!token.startsWith(TOKEN_PREFIX)) return { actor: null, problem: null };
  const found = await db.apiToken.findUnique({ where: { tokenHash: hashOf(token) }, include: { user: true } });
  if (!found) return { actor: null, problem: null };
  // Only the holder of the token itself learns this: it proves they once had a valid one.
  if (found.revokedAt) return { actor: null, problem: `This API token (${found.prefix}…) was revoked; ask an admin for a new one` };
  if (found.expiresAt && found.expiresAt.getTime() <= now.getTime()) {
    return { actor: null, problem: `This API token (${found.prefix}…) expired on ${found.expiresAt.toISOString()}; ask an admin for a new one` };
  }
  if (found.user.disabled) return { actor: null, problem: null };
  await db.apiToken.update({ where: { id: found.id }, data: { lastUsedAt: now } });
  return { actor: { id: found.user.id, email: found.user.email, role: found.user.role as Role, via: "token" } };
}

/** The actor a bearer token stands for, or null when it is unknown, revoked, expired or its user disabled. */
export async function actorForApiToken(db: Db, token: string): Promise<Actor | null> {
  return (await checkApiToken(db, token)).actor;
}
