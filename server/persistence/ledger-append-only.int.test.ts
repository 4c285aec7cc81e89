import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaRunRepository } from "./prisma-run-repository";
import { createTestDatabase, testPostgresUrl, type TestDatabase } from "./testing/test-database";

function describeAppendOnly(provider: "sqlite" | "postgres") {
  describe(`the ledger on ${provider} is append-only in the database itself`, () => {
    let database: TestDatabase;
    let runId: string;
    beforeAll(async () => {
      database = await createTestDatabase(provider);
      const repository = new PrismaRunRepository(database.db);
      runId = (await repository.create({ specification: "spec" })).id;
      await repository.observer(runId).record({ type: "run.started", specification: "spec" });
    });
    afterAll(async () => database?.dispose());

    it("refuses updates", async () => {
      await expect(database.db.ledgerEntry.updateMany({ where: { runId }, data: { type: "tampered" } })).rejects.toThrow(/append-only/);
    });

    it("refuses deletes", async () => {
      await expect(database.db.ledgerEntry.deleteMany({ where: { runId } })).rejects.toThrow(/append-only/);
    });

    it("still has the original entry", async () => {
      const entries = await database.db.ledgerEntry.findMany({ where: { runId }, select: { seq: true, type: true } });
      expect(entries).toEqual([{ seq: 1, type: "run.started" }]);
    });
  });
}

describeAppendOnly("sqlite");
describe.runIf(Boolean(testPostgresUrl))("PostgreSQL (TEST_POSTGRES_URL)", () => describeAppendOnly("postgres"));
