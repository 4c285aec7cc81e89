import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { closeDurableStoreForUrl } from "../../durable/store-for-url";
import { createDb, type Db } from "../db";
import { migrateDatabase } from "../migrations/migrate";
import type { DatabaseProvider } from "../schema/provider-schema";

export interface TestDatabase {
  readonly db: Db;
  readonly url: string;
  dispose(): Promise<void>;
}

/** TEST_POSTGRES_URL points at a server where the tests may create and drop databases. */
export const testPostgresUrl = process.env.TEST_POSTGRES_URL;

/** The databases every store test runs on: SQLite always, PostgreSQL when TEST_POSTGRES_URL is set. */
export const TEST_PROVIDERS = testPostgresUrl ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

/**
 * A fresh database of its own for one test file: a temp SQLite file or a new PostgreSQL
 * database, migrated unless `migrate: false`.
 */
export async function createTestDatabase(provider: DatabaseProvider, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  return provider === "postgres" ? createPostgresTestDatabase(migrate) : createSqliteTestDatabase(migrate);
}

async function createSqliteTestDatabase(migrate: boolean): Promise<TestDatabase> {
  const folder = mkdtempSync(join(tmpdir(), "dualstate-test-"));
  const url = `file:${join(folder, "test.db")}`;
  if (migrate) await migrateDatabase(url);
  const db = createDb(url);
  return {
    db,
    url,
    async dispose() {
      await closeDurableStoreForUrl(url);
      await db.$disconnect();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function createPostgresTestDatabase(migrate: boolean): Promise<TestDatabase> {
  if (!testPostgresUrl) throw new Error("TEST_POSTGRES_URL is not set");
  const name = `dualstate_test_${randomUUID().replaceAll("-", "")}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  if (migrate) await migrateDatabase(url.toString());
  const db = createDb(url.toString());
  return {
    db,
    url: url.toString(),
    async dispose() {
      await closeDurableStoreForUrl(url.toString());
      await db.$disconnect();
      await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
