import { describe } from "vitest";
import { describeRunRepositoryConformance } from "../engine/testing/run-repository-conformance";
import { PrismaRunRepository } from "./prisma-run-repository";
import { createTestDatabase, testPostgresUrl } from "./testing/test-database";

async function harnessOn(provider: "sqlite" | "postgres") {
  const database = await createTestDatabase(provider);
  return { repository: new PrismaRunRepository(database.db), dispose: () => database.dispose() };
}

// The Prisma adapters serve tests and offline tools; the store production runs is certified in
// server/durable (durable-store.int.test.ts, call-ledger.int.test.ts).
describeRunRepositoryConformance("Prisma + SQLite", () => harnessOn("sqlite"));

describe.runIf(Boolean(testPostgresUrl))("PostgreSQL (TEST_POSTGRES_URL)", () => {
  describeRunRepositoryConformance("Prisma + PostgreSQL", () => harnessOn("postgres"));
});
