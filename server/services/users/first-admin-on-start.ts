import { createDb } from "@/server/persistence/db";
import { ensureFirstAdmin } from "./ensure-first-admin";

/** `dualstate start`: the admin of a database with no users, reported once (with a generated password). */
export async function createFirstAdminOnStart(databaseUrl: string, configured: { email: string; password?: string }, report: (text: string) => void): Promise<void> {
  const db = createDb(databaseUrl);
  try {
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
