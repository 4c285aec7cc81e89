
/**
 * A case-insensitive "contains" filter on both databases. SQLite's LIKE already ignores the case of
 * ASCII letters; PostgreSQL needs `mode: "insensitive"` (ILIKE), which the SQLite client's types do
 * not have, hence the cast. Prisma escapes % and _ in the text, so they match themselves.
 */
export function containsText(db: unknown, text: string): { contains: string } {
  return (db as { _activeProvider?: string })._activeProvider === "postgresql" ? ({ contains: text, mode: "insensitive" } as { contains: string }) : { contains: text };
}

