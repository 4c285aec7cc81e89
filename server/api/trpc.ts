/**
 * The tRPC setup, initialised once:
 * 1. the context every procedure receives;
 * 2. the error formatter (flattened zod errors, no stack traces, no internal messages);
 * 3. the one middleware that maps service errors to tRPC codes;
 * 4. the only base procedure routers may use.
 */
import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { z } from "zod";
import type { Db } from "@/server/persistence/db";
import { GENERIC_INTERNAL_ERROR_MESSAGE, toPublicTRPCError } from "./service-error-to-trpc";

// 1. Context: the database, injected so tests and the RSC caller can pass their own.
export interface TRPCContext {
  db: Db;
}

export function createTRPCContext(opts: { db: Db }): TRPCContext {
  return { db: opts.db };
}

// 2. Error formatter: one line per invalid field (e.g. "specification: must not be empty").
function describeInvalidInput(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; ");
}

const t = initTRPC.context<TRPCContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const zodError = error.code === "BAD_REQUEST" && error.cause instanceof z.ZodError ? error.cause : null;
    // The stack is dropped even in development: the server log has it, the response must not.
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      // Safety net for failures outside procedures (context creation, malformed batches),
      // which never pass through the middleware below.
      message:
        error.code === "INTERNAL_SERVER_ERROR"
          ? GENERIC_INTERNAL_ERROR_MESSAGE
          : zodError
            ? describeInvalidInput(zodError)
            : shape.message,
      data: { ...data, zodError: zodError ? z.flattenError(zodError) : null },
    };
  },
});

// 3. Service errors → tRPC codes, in this one place (docs/style.md rule 5).
const mapServiceErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) throw toPublicTRPCError(result.error);
  return result;
});

// 4. Exports.
export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(mapServiceErrors);
