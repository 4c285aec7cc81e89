import Database from "better-sqlite3";
import pg from "pg";

/**
 * A comparable description of a database's structure: tables, columns, indexes, foreign keys
 * and enums, sorted. Bookkeeping (the migrations table), triggers and the partial indexes that
 * Prisma's models cannot express (named `…_partial_idx`, written by hand in the migrations) are
 * left out; `listPartialIndexes` checks those.
 */
export type SchemaDescription = Record<string, unknown[]>;

const BOOKKEEPING = "_dualstate_migrations";
export const PARTIAL_INDEX_SUFFIX = "_partial_idx";

export function describeSqliteSchema(path: string): SchemaDescription {
  const db = new Database(path, { readonly: true });
  try {
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != ? ORDER BY name`).all(BOOKKEEPING) as { name: string }[]).map((t) => t.name);
    const description: SchemaDescription = { tables };
    for (const table of tables) {
      description[`${table}.columns`] = db.prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY name`).all(table);
      description[`${table}.foreignKeys`] = db.prepare(`SELECT "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY "from"`).all(table);
      const indexes = (db.prepare(`SELECT name, "unique", origin FROM pragma_index_list(?) ORDER BY name`).all(table) as { name: string }[]).filter(
        (index) => !index.name.endsWith(PARTIAL_INDEX_SUFFIX),
      );
      description[`${table}.indexes`] = indexes.map((index) => ({
        ...index,
        columns: (db.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).all(index.name) as { name: string }[]).map((c) => c.name),
      }));
    }
    return description;
  } finally {
    db.close();
  }
}

export async function describePostgresSchema(connectionString: string): Promise<SchemaDescription> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const query = async (sql: string) => (await client.query(sql, [BOOKKEEPING])).rows;
    return {
      columns: await query(`SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length
        FROM information_schema.columns WHERE table_schema = 'public' AND table_name != $1 ORDER BY table_name, column_name`),
      indexes: await query(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename != $1 AND indexname NOT LIKE '%${PARTIAL_INDEX_SUFFIX}' ORDER BY tablename, indexname`),
      constraints: await query(`SELECT c.conrelid::regclass::text AS table_name, c.conname, pg_get_constraintdef(c.oid) AS definition
        FROM pg_constraint c WHERE c.connamespace = 'public'::regnamespace AND c.conrelid::regclass::text != $1 ORDER BY 1, 2`),
      enums: await query(`SELECT t.typname, e.enumlabel, e.enumsortorder FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
        WHERE t.typnamespace = 'public'::regnamespace AND $1::text IS NOT NULL ORDER BY t.typname, e.enumsortorder`),
    };
  } finally {
    await client.end();
  }
}

/** The hand-written partial indexes of a database, with their definitions. */
export async function listPartialIndexes(provider: "sqlite" | "postgres", location: string): Promise<{ name: string; definition: string }[]> {
  if (provider === "sqlite") {
    const db = new Database(location, { readonly: true });
    try {
      return db.prepare(`SELECT name, sql AS definition FROM sqlite_master WHERE type = 'index' AND name LIKE '%${PARTIAL_INDEX_SUFFIX}' ORDER BY name`).all() as { name: string; definition: string }[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    return (await client.query(`SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE '%${PARTIAL_INDEX_SUFFIX}' ORDER BY indexname`)).rows;
  } finally {
    await client.end();
  }
}
