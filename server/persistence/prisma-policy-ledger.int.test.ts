import { describe } from "vitest";
import { policyLedgerOn } from "../engine";
import { describePolicyLedgerConformance } from "../engine/testing/policy-ledger-conformance";
import { PrismaCallLedger } from "./prisma-call-ledger";
import { PrismaRunRepository } from "./prisma-run-repository";
import { createTestDatabase, testPostgresUrl } from "./testing/test-database";

/** Policy ledgers held by a run's database ledger under their scopes, as the agent generator keeps them. */
async function harnessOn(provider: "sqlite" | "postgres") {
  const database = await createTestDatabase(provider);
  const runs = new PrismaRunRepository(database.db);
  return {
    async open() {
      const { id } = await runs.create({ specification: "spec" });
      return {
        ledger: policyLedgerOn(runs.calls(id), "implement/attempt-1"),
        // A new ledger over the same rows, as a worker restarted after a crash would open it.
        reopen: () => policyLedgerOn(new PrismaCallLedger(database.db, id), "implement/attempt-1"),
      };
    },
    dispose: () => database.dispose(),
  };
}

describePolicyLedgerConformance("Prisma + SQLite", () => harnessOn("sqlite"));

describe.runIf(Boolean(testPostgresUrl))("PostgreSQL (TEST_POSTGRES_URL)", () => {
  describePolicyLedgerConformance("Prisma + PostgreSQL", () => harnessOn("postgres"));
});
