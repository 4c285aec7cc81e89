import { describe } from "vitest";
import { describePerceptTables } from "../engine/testing/percept-table-scenarios";
import { PrismaRunRepository } from "./prisma-run-repository";
import { createTestDatabase, testPostgresUrl } from "./testing/test-database";

async function harnessOn(provider: "sqlite" | "postgres") {
  const database = await createTestDatabase(provider);
  return { repository: new PrismaRunRepository(database.db), dispose: () => database.dispose() };
}

describePerceptTables("Prisma + SQLite", () => harnessOn("sqlite"));

describe.runIf(Boolean(testPostgresUrl))("PostgreSQL (TEST_POSTGRES_URL)", () => {
  describePerceptTables("Prisma + PostgreSQL", () => harnessOn("postgres"));
});
