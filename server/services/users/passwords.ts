import { randomBytes, randomUUID } from "node:crypto";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import { passwordProblem } from "@/server/auth/password-rules";
import type { Db } from "@/server/persistence/db";
import type { Actor } from "@/server/api/trpc";
import { conflict, invalidInput, notFound } from "@/server/services/errors";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";

/**
 * Passwords are hashed and checked with better-auth's own functions (the scheme its sign-in
 * verifies) and written to its credential account in one transaction with the sessions they end
 * and the audit event, so a change is never half done.
 */
type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

async function storePassword(tx: Tx, userId: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  const credential = await tx.account.findFirst({ where: { userId, providerId: "credential" }, select: { id: true } });
  if (credential) await tx.account.update({ where: { id: credential.id }, data: { password: hash } });
  else await tx.account.create({ data: { id: randomUUID(), accountId: userId, providerId: "credential", userId, password: hash } });
}

/** Long enough to pass the rules and to read out once: 18 URL-safe characters (108 bits). */
function generatePassword(): string {
  for (;;) {
    const candidate = randomBytes(18).toString("base64url").slice(0, 18);
    if (passwordProblem(candidate) === null) return candidate;
  }
}

export interface PasswordReset {
  readonly userId: string;
  /** Typed in by the admin; without it one is generated and returned once. */
  readonly password?: string;
}

/** An admin sets or generates a user's password; every session of that user ends. */
export async function resetUserPassword(db: Db, input: PasswordReset, by: Actor): Promise<{ email: string; generatedPassword?: string; sessionsEnded: number }> {
  const user = await db.user.findUnique({ where: { id: input.userId }, select: { id: true, email: true } });
  if (!user) throw notFound("User", input.userId);
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password, user);
    if (problem) throw invalidInput("password", problem);
  }
  const password = input.password ?? generatePassword();
  const sessionsEnded = await db.$transaction(async (tx) => {
    await storePassword(tx, user.id, password);
    const { count } = await tx.session.deleteMany({ where: { userId: user.id } });
    await recordAuditEvent(tx, { actor: by, action: "user.password_reset", target: `user:${user.email}`, detail: { generated: input.password === undefined, sessionsEnded: count } });
    return count;
  });
  return { email: user.email, ...(input.password === undefined ? { generatedPassword: password } : {}), sessionsEnded };
}

/** Like the sign-in's limit: a stolen session must not become a way to guess the password. */
export const MAX_WRONG_CURRENT_PASSWORDS = 5;
export const WRONG_PASSWORD_WINDOW_MS = 15 * 60 * 1000;

export interface PasswordChange {
  readonly currentPassword: string;
  readonly newPassword: string;
}

/**
 * A signed-in person changes their own password: the current one must be right, the new one pass
 * the rules; their other sessions end, the one they are using (`keepSessionId`) stays.
 */
export async function changeOwnPassword(db: Db, actor: Actor, input: PasswordChange, keepSessionId: string | undefined, now = new Date()): Promise<{ sessionsEnded: number }> {
  if (actor.via !== "session" || !keepSessionId) throw conflict("Change your password while signed in in the browser, not with an API token");
  // The failures are counted from the audit log, so the limit holds across server processes.
  const recentFailures = await db.auditEvent.count({ where: { actorId: actor.id, action: "user.password_change_failed", at: { gte: new Date(now.getTime() - WRONG_PASSWORD_WINDOW_MS) } } });
  if (recentFailures >= MAX_WRONG_CURRENT_PASSWORDS) {
    throw conflict(`Too many wrong current passwords (${MAX_WRONG_CURRENT_PASSWORDS} in ${WRONG_PASSWORD_WINDOW_MS / 60_000} minutes); try again later`);
  }
  const credential = await db.account.findFirst({ where: { userId: actor.id, providerId: "credential" }, select: { password: true } });
  if (!credential?.password || !(await verifyPassword({ hash: credential.password, password: input.currentPassword }))) {
    await recordAuditEvent(db, { actor, action: "user.password_change_failed", target: `user:${actor.email}`, detail: { reason: "wrong current password" } });
    throw invalidInput("currentPassword", "is not your current password");
  }
  const problem = passwordProblem(input.newPassword, actor);
  if (problem) throw invalidInput("newPassword", problem);
  if (input.newPassword === input.currentPassword) throw invalidInput("newPassword", "must differ from the current password");
  return db.$transaction(async (tx) => {
    await storePassword(tx, actor.id, input.newPassword);
    const { count } = await tx.session.deleteMany({ where: { userId: actor.id, id: { not: keepSessionId } } });
    await recordAuditEvent(tx, { actor, action: "user.password_changed", target: `user:${actor.email}`, detail: { sessionsEnded: count } });
    return { sessionsEnded: count };
  });
}
