import { TRPCError } from "@trpc/server";
import { isServiceError, type ServiceErrorCode } from "@/server/services/errors";

/** The message every unexpected failure gets: the cause is logged on the server, never sent. */
export const GENERIC_INTERNAL_ERROR_MESSAGE = "Internal server error";

const TRPC_CODE_FOR: Record<ServiceErrorCode, TRPCError["code"]> = {
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  INVALID_INPUT: "BAD_REQUEST",
  NOT_CONFIGURED: "PRECONDITION_FAILED",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
};

/**
 * Turns the error a procedure ended with into the one its caller may see.
 * - A ServiceError keeps its message (it names the field or id) under the matching code.
 * - Any other INTERNAL_SERVER_ERROR is unexpected: tRPC would copy the cause's message into the
 *   response, so it is replaced by a generic one; the cause stays attached for the server log.
 * - Errors tRPC raised deliberately (input validation → BAD_REQUEST) pass through.
 */
export function toPublicTRPCError(error: TRPCError): TRPCError {
  const cause = error.cause;
  if (isServiceError(cause)) {
    return new TRPCError({ code: TRPC_CODE_FOR[cause.code], message: cause.message, cause });
  }
  if (error.code === "INTERNAL_SERVER_ERROR") {
    return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: GENERIC_INTERNAL_ERROR_MESSAGE, cause: cause ?? error });
  }
  return error;
}
