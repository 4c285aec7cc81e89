/**
 * The closed set of failures a service may report to its caller. Each one is expected and
 * safe to show: its message names the field or id at fault. Anything else a service throws is
 * a bug or an outage, and the API edge (server/api/trpc.ts) reports it without its message.
 */
export const SERVICE_ERROR_CODES = ["NOT_FOUND", "CONFLICT", "INVALID_INPUT", "NOT_CONFIGURED", "TOO_MANY_REQUESTS"] as const;
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

export class ServiceError extends Error {
  override readonly name = "ServiceError";

  constructor(
    readonly code: ServiceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Detects a ServiceError by name and code rather than `instanceof`, which fails when the
 * module is bundled twice (Next.js server chunks, Vitest module graphs).
 */
export function isServiceError(error: unknown): error is ServiceError {
  return (
    error instanceof Error &&
    error.name === "ServiceError" &&
    SERVICE_ERROR_CODES.includes((error as { code?: unknown }).code as ServiceErrorCode)
  );
}

export function notFound(entity: string, id: string): ServiceError {
  return new ServiceError("NOT_FOUND", `${entity} "${id}" was not found`);
}

export function conflict(message: string): ServiceError {
  return new ServiceError("CONFLICT", message);
}

export function invalidInput(field: string, problem: string): ServiceError {
  return new ServiceError("INVALID_INPUT", `${field}: ${problem}`);
}

/** Something the request needs is not set up (a model endpoint); the message says what and where to set it. */
export function notConfigured(message: string): ServiceError {
  return new ServiceError("NOT_CONFIGURED", message);
}

/** The caller has as much running as it may at once (a step test's per-person limit). */
export function tooManyRequests(message: string): ServiceError {
  return new ServiceError("TOO_MANY_REQUESTS", message);
}
