/**
 * Catches drift between prisma/models.prisma, the generated provider schemas and the checked-in
 * migrations of both databases: a database built from the migrations must have exactly the
 * structure Prisma derives from the models.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../project-root";
import { diffSchemas } from "../schema/prisma-diff";
import { PROVIDERS, renderProviderSchema, type DatabaseProvider } from "../schema/provider-schema";
import { createTestDatabase, testPostgresUrl, type TestDatabase } from "../testing/test-database";
import { describePostgresSchema, describeSqliteSchema, listPartialIndexes } from "../testing/introspect-schema";
import { migrationsFolder } from "./migration-files";

const root = projectRoot();
const schemaPath = (provider: DatabaseProvider) => join(root, "prisma", provider, "schema.prisma");

describe("generated schemas", () => {
  it.each(PROVIDERS)("prisma/%s/schema.prisma is generated from prisma/models.prisma (run npm run db:schemas)", (provider) => {
    const models = readFileSync(join(root, "prisma", "models.prisma"), "utf8");
    expect(readFileSync(schemaPath(provider), "utf8")).toBe(renderProviderSchema(provider, models));
  });

  it.each(PROVIDERS)("the last %s migration ends at the current schema (run npm run db:new-migration -- <name>)", (provider) => {
    const snapshot = readFileSync(join(migrationsFolder(provider, root), "schema-snapshot.prisma"), "utf8");
    expect(snapshot).toBe(readFileSync(schemaPath(provider), "utf8"));
  });
});

async function databasesToCompare(provider: DatabaseProvider): Promise<[TestDatabase, TestDatabase]> {
  return [await createTestDatabase(provider, { migrate: true }), await createTestDatabase(provider, { migrate: false })];
}

describe("migrations match the models", () => {
  const opened: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of opened) await database.dispose();
  });

  it("on SQLite", async () => {
    const [migrated, fromModels] = await databasesToCompare("sqlite");
    opened.push(migrated, fromModels);
    const ddl = await diffSchemas({ root, provider: "sqlite", from: "empty", to: schemaPath("sqlite") });
    const path = fromModels.url.slice("file:".length);
    const raw = new Database(path);
    raw.exec(ddl);
    raw.close();
    expect(describeSqliteSchema(migrated.url.slice("file:".length))).toEqual(describeSqliteSchema(path));
  });

  it.runIf(Boolean(testPostgresUrl))("on PostgreSQL", async () => {
    const [migrated, fromModels] = await databasesToCompare("postgres");
    opened.push(migrated, fromModels);
    const ddl = await diffSchemas({ root, provider: "postgres", from: "empty", to: schemaPath("postgres"), postgresUrl: fromModels.url });
    const client = new pg.Client({ connectionString: fromModels.url });
    await client.connect();
    await client.query(ddl);
    await client.end();
    expect(await describePostgresSchema(migrated.url)).toEqual(await describePostgresSchema(fromModels.url));
  });
});

describe("hand-written partial indexes", () => {
  const opened: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of opened) await database.dispose();
  });
  const expected = [
    { name: "InboxMessage_due_partial_idx", columns: ["nextRetryAt", "createdAt"], predicate: /WHERE .*status.*pending.*deferred/i },
    { name: "Run_live_partial_idx", columns: ["status", "resumeDeadline", "leaseExpiresAt"], predicate: /WHERE .*status.*queued.*suspended.*dispatched.*running/i },
  ];

  it.each(PROVIDERS.filter((provider) => provider === "sqlite" || testPostgresUrl))("exist on %s after migrating, limited to claimable messages and live runs", async (provider) => {
    const database = await createTestDatabase(provider, { migrate: true });
    opened.push(database);
    const indexes = await listPartialIndexes(provider, provider === "sqlite" ? database.url.slice("file:".length) : database.url);
    expect(indexes.map((index) => index.name).sort()).toEqual(expected.map((index) => index.name).sort());
    for (const index of indexes) expect(index.definition).toMatch(expected.find((entry) => entry.name === index.name)?.predicate ?? /never/);
  });
});
