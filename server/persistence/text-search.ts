/**
 * A case-insensitive "contains" filter on both databases. Prisma passes the text to LIKE as it is.
 * PostgreSQL: ILIKE (`mode: "insensitive"`, absent from the SQLite client's types, hence the cast),
 * with %, _ and \ escaped by backslash (LIKE's default escape there), so they match themselves.
 * SQLite: LIKE already ignores the case of ASCII letters, but it has no escape character unless
 * the query names one, which Prisma's does not; there % and _ in a search still match any
 * characters, so the search can only come out wider than asked, never narrower.
 */
export function containsText(db: unknown, text: string): { contains: string } {
  if ((db as { _activeProvider?: string })._activeProvider !== "postgresql") return { contains: text };
  return { contains: text.replace(/[\\%_]/g, (character) => `\\${character}`), mode: "insensitive" } as { contains: string };
}
