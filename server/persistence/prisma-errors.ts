/** Prisma error codes, checked by value so detection works across both generated clients. */
function prismaCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** A unique constraint was violated (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return prismaCode(error) === "P2002";
}

/** A foreign key pointed nowhere (P2003) or the record to update was missing (P2025). */
export function isMissingReference(error: unknown): boolean {
  const code = prismaCode(error);
  return code === "P2003" || code === "P2025";
}
