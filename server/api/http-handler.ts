import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Db } from "@/server/persistence/db";
import { refuseOversizedBatch, trpcErrorResponse, withBoundedBody } from "./request-limits";
import { appRouter } from "./root";
import { createTRPCContext, type Actor } from "./trpc";

export const TRPC_ENDPOINT = "/api/trpc";

/**
 * Mutations arrive as POST. Only JSON bodies are accepted: a browser sends a cross-site form post
 * without a preflight, but never a cross-site application/json request, so this closes CSRF.
 */
function refuseNonJsonPost(request: Request): Response | null {
  if (request.method !== "POST") return null;
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/json") return null;
  return trpcErrorResponse(415, "UNSUPPORTED_MEDIA_TYPE", `Requests that change something must be JSON (Content-Type: application/json), not ${type ?? "a body without a type"}`);
}

/** Who is asking: an actor (or null), or the full credentials (server/auth/resolve-actor.ts). */
type Credentials = { readonly actor: Actor | null; readonly sessionId?: string; readonly problem?: string };
const asCredentials = (resolved: Actor | Credentials | null): Credentials => (resolved === null || "role" in resolved ? { actor: resolved } : resolved);

/**
 * Answers one tRPC HTTP request. `getDb` is called per request, so a misconfigured database
 * becomes a generic 500 instead of a crash at import time. `resolveActor` says who is asking.
 */
export async function handleTRPCRequest(request: Request, getDb: () => Db, resolveActor: (request: Request) => Promise<Actor | Credentials | null>): Promise<Response> {
  const refused = refuseNonJsonPost(request) ?? refuseOversizedBatch(request, TRPC_ENDPOINT);
  if (refused) return refused;
  const bounded = await withBoundedBody(request);
  if (bounded instanceof Response) return bounded;
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: bounded,
    router: appRouter,
    // A query may also come as POST (the editor's live check carries a whole document, too long
    // for a URL). Only JSON bodies get this far, and a query changes nothing.
    allowMethodOverride: true,
    // `reauthorize` asks again who the request's credentials belong to: a live stream ends when
    // they stop being valid (server/api/live-streams.ts).
    createContext: async () => {
      const { actor, sessionId, problem } = asCredentials(await resolveActor(request));
      return createTRPCContext({ db: getDb(), actor, sessionId, credentialProblem: problem, reauthorize: async () => asCredentials(await resolveActor(request)).actor });
    },
    onError({ error, path }) {
      // Only unexpected failures are logged; their cause never reaches the response.
      if (error.code === "INTERNAL_SERVER_ERROR") {
        console.error(`tRPC ${path ?? "(unknown path)"} failed:`, error.cause ?? error);
      }
    },
  });
}
