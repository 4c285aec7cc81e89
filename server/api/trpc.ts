/**
 * The tRPC setup, initialised once:
 * 1. the context every procedure receives;
 * 2. the error formatter (flattened zod errors, no stack traces, no internal messages);
 * 3. the one middleware that maps service errors to tRPC codes;
 * 4. the base procedures routers use: public, and one per role (viewer < reviewer < admin).
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { z } from "zod";
import { hasRole, roleFor, type Action, type Role } from "@/server/auth/permissions";
import type { Db } from "@/server/persistence/db";
import { GENERIC_INTERNAL_ERROR_MESSAGE, toPublicTRPCError } from "./service-error-to-trpc";

// The role vocabulary lives in server/auth/permissions.ts, which the dashboard imports too.
export { hasRole, ROLES, type Role } from "@/server/auth/permissions";

// 1. Context: the database, injected so tests and the RSC caller can pass their own, and the
// signed-in person or API token holder making the request (null when anonymous).

export interface Actor {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  /** How the request proved who it is: a browser session or a personal API token. */
  readonly via: "session" | "token";
}

export interface TRPCContext {
  db: Db;
  actor: Actor | null;
  /** The browser session the request came in, so a password change can keep it while ending the others. */
  sessionId?: string;
  /** Why the request's credentials were refused, when their holder may know (an expired API token). */
  credentialProblem?: string;
  /** Who the request's credentials belong to now (HTTP requests only): live streams re-check it. */
  reauthorize?: () => Promise<Actor | null>;
}

export function createTRPCContext(opts: { db: Db; actor?: Actor | null; sessionId?: string; credentialProblem?: string; reauthorize?: () => Promise<Actor | null> }): TRPCContext {
  return {
    db: opts.db,
    actor: opts.actor ?? null,
    ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
    ...(opts.credentialProblem ? { credentialProblem: opts.credentialProblem } : {}),
    ...(opts.reauthorize ? { reauthorize: opts.reauthorize } : {}),
  };
}

// 2. Error formatter: one line per invalid field (e.g. "specification: must not be empty").
function describeInvalidInput(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; ");
}

const t = initTRPC.context<TRPCContext>().create({
  transformer: superjson,
  // Subscriptions (the live run page) over server-sent events: pings keep proxies from closing an
  // idle stream; the client reconnects after 10 s of silence, resuming from the last event id.
  sse: { ping: { enabled: true, intervalMs: 5_000 }, client: { reconnectAfterInactivityMs: 10_000 } },
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

/** Checked on the server for every call, whatever the UI shows: no session, no access. */
function requireRole(required: Role) {
  return t.middleware(({ ctx, next }) => {
    if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: ctx.credentialProblem ?? "Sign in first" });
    if (!hasRole(ctx.actor.role, required)) {
      throw new TRPCError({ code: "FORBIDDEN", message: `This needs the ${required} role; ${ctx.actor.email} is a ${ctx.actor.role}` });
    }
    return next({ ctx: { ...ctx, actor: ctx.actor } });
  });
}

/** A procedure for one action of server/auth/permissions.ts, e.g. `permittedProcedure("start_run")`. */
export function permittedProcedure(action: Action) {
  return publicProcedure.use(requireRole(roleFor(action)));
}

export const viewerProcedure = publicProcedure.use(requireRole("viewer"));
export const reviewerProcedure = publicProcedure.use(requireRole("reviewer"));
export const adminProcedure = publicProcedure.use(requireRole("admin"));
