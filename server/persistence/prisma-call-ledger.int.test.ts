import { describe } from "vitest";
import { describeCallLedgerConformance } from "../engine/testing/call-ledger-conformance";
import { PrismaCallLedger } from "./prisma-call-ledger";
import { PrismaRunRepository } from "./prisma-run-repository";
import { createTestDatabase, testPostgresUrl } from "./testing/test-database";

async function harnessOn(provider: "sqlite" | "postgres") {
  const database = await createTestDatabase(provider);
  const runs = new PrismaRunRepository(database.db);
  return {
    async open() {
      const { id } = await runs.create({ specification: "spec" });
      return {
        ledger: runs.calls(id),
        // A new object over the same rows, as a worker restarted after a crash would have.
        reopen: () => new PrismaCallLedger(database.db, id),
        steps: async () => (await runs.ledger(id)).map(({ actor, type, payload }) => ({ actor, type, payload })),
      };
    },
    dispose: () => database.dispose(),
  };
}

// The Prisma adapters serve tests and offline tools; the store production runs is certified in
// server/durable (durable-store.int.test.ts, call-ledger.int.test.ts).
describeCallLedgerConformance("Prisma + SQLite", () => harnessOn("sqlite"));

describe.runIf(Boolean(testPostgresUrl))("PostgreSQL (TEST_POSTGRES_URL)", () => {
  describeCallLedgerConformance("Prisma + PostgreSQL", () => harnessOn("postgres"));
});
