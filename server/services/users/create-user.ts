import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { accountEmailProblem, normalizeAccountEmail } from "@/server/auth/account-email";
import { passwordProblem } from "@/server/auth/password-rules";
import type { Db } from "@/server/persistence/db";
import type { Actor, Role } from "@/server/api/trpc";
import { conflict, invalidInput } from "@/server/services/errors";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";

export interface NewUser {
  readonly email: string;
  readonly name?: string;
  readonly password: string;
  readonly role: Role;
}

/** Creates a user who signs in with email and password (better-auth's credential account). */
export async function createUser(db: Db, input: NewUser, by: Pick<Actor, "id" | "email"> | { id: null; email: string }) {
  const email = normalizeAccountEmail(input.email);
  // The sign-in's own rule: an account it would refuse could never be used.
  const problem = accountEmailProblem(email);
  if (problem) throw invalidInput("email", problem);
  const weak = passwordProblem(input.password, { email });
  if (weak) throw invalidInput("password", weak);
  if (await db.user.findUnique({ where: { email } })) throw conflict(`A user with the email ${email} already exists`);
  const id = randomUUID();
  const passwordHash = await hashPassword(input.password);
  await db.$transaction(async (tx) => {
    await tx.user.create({ data: { id, email, name: input.name?.trim() || email.split("@")[0]!, role: input.role, emailVerified: true } });
    await tx.account.create({ data: { id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash } });
    await recordAuditEvent(tx, { actor: by, action: "user.created", target: `user:${email}`, detail: { role: input.role } });
  });
  return { id, email, role: input.role };
}
