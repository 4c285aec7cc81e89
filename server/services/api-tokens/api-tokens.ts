import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "@/server/persistence/db";
import type { Actor, Role } from "@/server/api/trpc";
import { notFound } from "@/server/services/errors";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";

const TOKEN_PREFIX = "dst_";

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** Creates a token for a user; the plain token is returned this once and stored only as its hash. */
export async function createApiToken(db: Db, input: { userId: string; name: string }, by: Actor) {
  const user = await db.user.findUnique({ where: { id: input.userId } });
  if (!user) throw notFound("User", input.userId);
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const id = randomUUID();
  await db.$transaction(async (tx) => {
    await tx.apiToken.create({ data: { id, name: input.name.trim(), tokenHash: hashOf(token), prefix: token.slice(0, TOKEN_PREFIX.length + 6), userId: user.id, createdBy: by.email } });
    await recordAuditEvent(tx, { actor: by, action: "token.created", target: `token:${id}`, detail: { name: input.name.trim(), for: user.email } });
  });
  return { id, token, prefix: token.slice(0, TOKEN_PREFIX.length + 6) };
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

/** The actor a bearer token stands for, or null when it is unknown, revoked or its user disabled. */
export async function actorForApiToken(db: Db, token: string): Promise<Actor | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const found = await db.apiToken.findUnique({ where: { tokenHash: hashOf(token) }, include: { user: true } });
  if (!found || found.revokedAt || found.user.disabled) return null;
  await db.apiToken.update({ where: { id: found.id }, data: { lastUsedAt: new Date() } });
  return { id: found.user.id, email: found.user.email, role: found.user.role as Role, via: "token" };
}
