import { randomBytes } from "node:crypto";
import type { Db } from "@/server/persistence/db";
import { createUser } from "./create-user";

export type FirstAdmin = { readonly created: false } | { readonly created: true; readonly email: string; readonly generatedPassword?: string };

/**
 * On a start with no users: creates the admin from the configured email and password, or with a
 * generated password that the caller prints once (it is stored only as a hash).
 */
export async function ensureFirstAdmin(db: Db, configured: { email: string; password?: string }): Promise<FirstAdmin> {
  if ((await db.user.count()) > 0) return { created: false };
  const generatedPassword = configured.password ? undefined : randomBytes(12).toString("base64url");
  let email: string;
  try {
    ({ email } = await createUser(db, { email: configured.email, password: configured.password ?? generatedPassword!, role: "admin", name: "Admin" }, { id: null, email: "dualstate" }));
  } catch (error) {
    // Another process created the first user meanwhile.
    if ((await db.user.count()) > 0) return { created: false };
    throw error;
  }
  return { created: true, email, generatedPassword };
}
