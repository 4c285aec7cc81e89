import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "../testing/test-database";
import { openSqlClient } from "./open-sql-client";
import type { SqlClient } from "./sql-client";

/**
 * transactionWithoutWaitingForDisk changes only its own commit: the transaction commits or rolls
 * back like any other, and the connection's next transactions wait for the disk again.
 */
describe.each(TEST_PROVIDERS)("a transaction without waiting for the disk on %s", (provider) => {
  let database: TestDatabase;
  let sql: SqlClient;
  const durability = async (): Promise<string> => {
    const statement = provider === "postgres" ? "SHOW synchronous_commit" : "PRAGMA synchronous";
    const [row] = await sql.query<Record<string, unknown>>(statement);
    return String(Object.values(row ?? {})[0]);
  };

  beforeAll(async () => {
    database = await createTestDatabase(provider, { migrate: false });
    // One connection, so the setting read afterwards is the one the transaction ran on.
    sql = openSqlClient(database.url, { maxConnections: 1 });
    await sql.execute(`CREATE TABLE "Probe" ("id" INTEGER PRIMARY KEY, "note" TEXT NOT NULL)`);
  });
  afterAll(async () => {
    await sql.close();
    await database.dispose();
  });

  it("commits its writes and leaves the connection waiting for the disk", async () => {
    const before = await durability();
    expect(before).toBe(provider === "postgres" ? "on" : "2");
    const seen = await sql.transactionWithoutWaitingForDisk(async (tx) => {
      await tx.execute(`INSERT INTO "Probe" ("id", "note") VALUES (1, 'claimed')`);
      const [row] = await tx.query<Record<string, unknown>>(provider === "postgres" ? "SHOW synchronous_commit" : "PRAGMA synchronous");
      return String(Object.values(row ?? {})[0]);
    });
    // Inside: PostgreSQL's commit does not wait for the log's flush; SQLite's runs at NORMAL (1).
    expect(seen).toBe(provider === "postgres" ? "off" : "1");
    expect(await sql.query(`SELECT "note" FROM "Probe" WHERE "id" = 1`)).toEqual([{ note: "claimed" }]);
    expect(await durability()).toBe(before);
  });

  it("rolls back when its work throws, and still leaves the connection waiting for the disk", async () => {
    await expect(
      sql.transactionWithoutWaitingForDisk(async (tx) => {
        await tx.execute(`INSERT INTO "Probe" ("id", "note") VALUES (2, 'lost')`);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await sql.query(`SELECT "note" FROM "Probe" WHERE "id" = 2`)).toEqual([]);
    expect(await durability()).toBe(provider === "postgres" ? "on" : "2");
  });
});
