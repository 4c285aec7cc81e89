import { parseDatabaseUrl } from "../persistence/database-url";

/** A database as a user should see it in messages: the SQLite path, or the PostgreSQL URL without its password. */
export function describeDatabase(databaseUrl: string): string {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.provider === "sqlite") return target.location;
  const url = new URL(target.location);
  if (url.password) url.password = "***";
  return url.toString();
}
