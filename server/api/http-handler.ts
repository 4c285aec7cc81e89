import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Db } from "@/server/persistence/db";
import { appRouter } from "./root";
import { createTRPCContext } from "./trpc";

export const TRPC_ENDPOINT = "/api/trpc";

/**
 * Answers one tRPC HTTP request. `getDb` is called per request, so a misconfigured database
 * becomes a generic 500 instead of a crash at import time.
 */
export function handleTRPCRequest(request: Request, getDb: () => Db): Promise<Response> {
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: request,
    router: appRouter,
    createContext: () => createTRPCContext({ db: getDb() }),
    onError({ error, path }) {
      // Only unexpected failures are logged; their cause never reaches the response.
      if (error.code === "INTERNAL_SERVER_ERROR") {
        console.error(`tRPC ${path ?? "(unknown path)"} failed:`, error.cause ?? error);
      }
    },
  });
}
