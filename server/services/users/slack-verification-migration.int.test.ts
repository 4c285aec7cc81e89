import { afterAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "@/server/persistence/database-url";
import { readMigrationFiles } from "@/server/persistence/migrations/migration-files";
import { migrateDatabase } from "@/server/persistence/migrations/migrate";
import { migratePostgres } from "@/server/persistence/migrations/migrate-postgres";
import { migrateSqlite } from "@/server/persistence/migrations/migrate-sqlite";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";

const MIGRATION = "slack_verification";

describe.each(TEST_PROVIDERS)("the Slack verification migration on %s", (provider) => {
  const opened: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of opened) await database.dispose();
  });

  it("turns every Slack member id linked before it into an unverified claim of the same account", async () => {
    const database = await createTestDatabase(provider, { migrate: false });
    opened.push(database);
    const files = readMigrationFiles(provider);
    const before = files.slice(0, files.findIndex((file) => file.name.endsWith(`_${MIGRATION}`)));
    expect(before.length).toBeLessThan(files.length);
    const location = parseDatabaseUrl(database.url).location;
    if (provider === "postgres") await migratePostgres(location, before);
    else migrateSqlite(location, before);
    await database.db.$executeRawUnsafe(
      `INSERT INTO "User" ("id", "name", "email", "slackUserId", "notifyBySlack", "updatedAt") VALUES ('u-ada', 'Ada', 'ada@example.test', 'U0ADA', true, CURRENT_TIMESTAMP), ('u-cy', 'Cy', 'cy@example.test', NULL, false, CURRENT_TIMESTAMP)`,
    );

    expect(await migrateDatabase(database.url)).toEqual(files.slice(before.length).map((file) => file.name));
    expect(await database.db.user.findMany({ select: { id: true, slackUserId: true, notifyBySlack: true }, orderBy: { id: "asc" } })).toEqual([
      { id: "u-ada", slackUserId: null, notifyBySlack: true },
      { id: "u-cy", slackUserId: null, notifyBySlack: false },
    ]);
    expect(await database.db.slackVerification.findMany({ select: { userId: true, slackUserId: true, codeHash: true, attempts: true } })).toEqual([{ userId: "u-ada", slackUserId: "U0ADA", codeHash: null, attempts: 0 }]);
  });
});
