import { describe } from "vitest";
import { describeRunRepositoryConformance } from "../engine/testing/run-repository-conformance";
import { PrismaRunRepository } from "./prisma-run-repository";
import { createTestDatabase, testPostgresUrl } from "./testing/test-database";

async function harnessOn(provider: "sqlite" | "postgres") {
  const database = await createTestDatabase(provider);
  return { repository: new PrismaRunRepository(database.db), dispose: () => database.dispose() };
}

describeRunRepositoryConformance("Prisma + SQLite", () => harnessOn("sqlite"));

describe.runIf(Boolean(testPostgresUrl))("PostgreSQL (TEST_POSTGRES_URL)", () => {
  describeRunRepositoryConformance("Prisma + PostgreSQL", () => harnessOn("postgres"));
});
