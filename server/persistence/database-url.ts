import { fromProjectRoot } from "./project-root";
import type { DatabaseProvider } from "./schema/provider-schema";

export interface DatabaseTarget {
  readonly provider: DatabaseProvider;
  /** For SQLite an absolute file path (or ":memory:"); for PostgreSQL the connection string. */
  readonly location: string;
}

/** `file:PATH` is SQLite (relative paths are relative to the project folder); `postgres(ql)://` is PostgreSQL. */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length);
    if (!path) throw new Error("DATABASE_URL: file: needs a path, e.g. file:./data/dualstate.db");
    return { provider: "sqlite", location: path === ":memory:" ? path : fromProjectRoot(path) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { provider: "postgres", location: url };
  throw new Error("DATABASE_URL: must be file:PATH for SQLite or postgresql://... for PostgreSQL");
}
