import { randomBytes } from "node:crypto";
import type { Db } from "@/server/persistence/db";

/** The Setting row that holds the generated auth secret (also read by server/models/load-from-sql.ts). */
export const AUTH_SECRET_SETTING = "auth.secret";

/**
 * The secret that signs session cookies: DUALSTATE_AUTH_SECRET, or one generated on first use and
 * kept in the database, so every web server of a deployment signs alike and restarts keep sessions.
 */
export async function authSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const existing = await db.setting.findUnique({ where: { key: AUTH_SECRET_SETTING } });
  if (existing) return existing.value;
  try {
    await db.setting.create({ data: { key: AUTH_SECRET_SETTING, value: randomBytes(32).toString("hex") } });
  } catch {
    // Another process created it first: theirs wins.
  }
  return (await db.setting.findUniqueOrThrow({ where: { key: AUTH_SECRET_SETTING } })).value;
}
