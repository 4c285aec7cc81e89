import type { Db } from "@/server/persistence/db";
import { testPostgresUrl } from "@/server/persistence/testing/test-database";
import { createCaller } from "../root";
import { createTRPCContext, type Actor } from "../trpc";

/** The actor router tests call as unless they say otherwise (role checks have their own tests). */
export const TEST_ADMIN: Actor = { id: "test-admin", email: "admin@example.com", role: "admin", via: "session" };

/**
 * The databases router tests run against: SQLite always, PostgreSQL when TEST_POSTGRES_URL
 * names a server where tests may create databases.
 */
export const TEST_DATABASES = [
  { provider: "sqlite", enabled: true },
  { provider: "postgres", enabled: Boolean(testPostgresUrl) },
] as const;

export function createTestCaller(db: Db, actor: Actor | null = TEST_ADMIN) {
  return createCaller(createTRPCContext({ db, actor }));
}

/** A database whose every query fails with `message`, to check what callers get to see. */
export function createFailingDb(message: string): Db {
  const fail = () => Promise.reject(new Error(message));
  const failingDelegate = new Proxy({}, { get: () => fail });
  // Model delegates (db.workflow.findMany) and client methods (db.$transaction) alike.
  return new Proxy({}, { get: (_target, key) => (typeof key === "string" && key.startsWith("$") ? fail : failingDelegate) }) as Db;
}
