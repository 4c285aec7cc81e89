import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Db } from "@/server/persistence/db";
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
  return Response.json(
    { error: { json: { message: `Requests that change something must be JSON (Content-Type: application/json), not ${type ?? "a body without a type"}`, code: -32600, data: { code: "UNSUPPORTED_MEDIA_TYPE", httpStatus: 415 } } } },
    { status: 415 },
  );
}

/**
 * Answers one tRPC HTTP request. `getDb` is called per request, so a misconfigured database
 * becomes a generic 500 instead of a crash at import time. `resolveActor` says who is asking.
 */
export function handleTRPCRequest(request: Request, getDb: () => Db, resolveActor: (request: Request) => Promise<Actor | null>): Promise<Response> {
  const refused = refuseNonJsonPost(request);
  if (refused) return Promise.resolve(refused);
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: request,
    router: appRouter,
    createContext: async () => createTRPCContext({ db: getDb(), actor: await resolveActor(request) }),
    onError({ error, path }) {
      // Only unexpected failures are logged; their cause never reaches the response.
      if (error.code === "INTERNAL_SERVER_ERROR") {
        console.error(`tRPC ${path ?? "(unknown path)"} failed:`, error.cause ?? error);
      }
    },
  });
}
