import { createDb } from "@/server/persistence/db";
import { ensureFirstAdmin } from "./ensure-first-admin";
import { renameLegacyDefaultAdmin } from "./rename-legacy-admin";

/**
 * `dualstate start`: the admin of a database with no users, reported once (with a generated
 * password); and an admin an earlier version created as admin@localhost, renamed so it can sign in.
 */
export async function createFirstAdminOnStart(databaseUrl: string, configured: { email: string; password?: string }, report: (text: string) => void): Promise<void> {
  const db = createDb(databaseUrl);
  try {
    const legacy = await renameLegacyDefaultAdmin(db, configured.email);
    if (legacy.outcome === "renamed") {
      report(
        [
          `Renamed the admin ${legacy.from} to ${legacy.to}: the sign-in refuses an address without a dot in its domain.`,
          `Sign in as ${legacy.to} with the same password.`,
        ].join("\n"),
      );
    } else if (legacy.outcome === "taken") {
      report(
        [
          `The admin ${legacy.from} cannot sign in (the sign-in refuses an address without a dot in its domain),`,
          `and it was not renamed to ${legacy.to}: another account has that address. Sign in as that account,`,
          `or start once with DUALSTATE_ADMIN_EMAIL set to a free address to rename ${legacy.from} to it.`,
        ].join("\n"),
      );
    }
    const admin = await ensureFirstAdmin(db, configured);
    if (!admin.created) return;
    if (admin.generatedPassword) {
      report(
        [
          `Created the admin ${admin.email} with the generated password:`,
          ``,
          `    ${admin.generatedPassword}`,
          ``,
          `It is shown only now (stored as a hash). Sign in and create the other users under Admin → Users.`,
          `Set DUALSTATE_ADMIN_EMAIL and DUALSTATE_ADMIN_PASSWORD before the first start to choose them instead.`,
        ].join("\n"),
      );
    } else {
      report(`Created the admin ${admin.email} with the password from DUALSTATE_ADMIN_PASSWORD.`);
    }
  } finally {
    await db.$disconnect();
  }
}
