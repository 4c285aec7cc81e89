/**
 * Prisma CLI configuration. DB_PROVIDER (sqlite by default, or postgres) picks the generated
 * schema and its migration folder. The CLI is only used to generate clients and to write
 * migration SQL (npm run db:new-migration); Dualstate applies migrations itself at start-up
 * (server/persistence/migrations), so no schema-engine binary is ever needed.
 */
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

const provider = process.env.DB_PROVIDER === "postgres" ? "postgres" : "sqlite";

// Without a resolvable url Prisma tries to download a query engine (docs/stack.md, pitfall 5).
process.env.DATABASE_URL ??=
  provider === "postgres" ? "postgresql://postgres@127.0.0.1:5432/dualstate" : "file:./data/dualstate.db";
const databaseUrl = process.env.DATABASE_URL;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: `prisma/${provider}/schema.prisma`,
  migrations: { path: `prisma/migrations/${provider}` },
  async adapter() {
    return provider === "postgres"
      ? // A short idle timeout lets the CLI exit as soon as it is done instead of holding the pool open for 10 s.
        new PrismaPg({ connectionString: databaseUrl, idleTimeoutMillis: 200 })
      : new PrismaBetterSQLite3({ url: databaseUrl });
  },
});
