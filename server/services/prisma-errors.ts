/**
 * Prisma reports a unique-constraint violation as code P2002 on both SQLite and PostgreSQL.
 * Checked by code, not class, so it works with either generated client.
 */
export function isUniqueConstraintViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
