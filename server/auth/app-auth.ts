import "server-only";
import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import type { Actor } from "@/server/api/trpc";
import { getAuth, type DualstateAuth } from "./auth-instance";
import { resolveActor, resolveCredentials, type RequestCredentials } from "./resolve-actor";

/** The app's better-auth instance, over DATABASE_URL. */
export function appAuth(): Promise<DualstateAuth> {
  const env = getEnv();
  return getAuth(getDb(), { databaseUrl: env.DATABASE_URL, secret: env.DUALSTATE_AUTH_SECRET, baseUrl: env.DUALSTATE_BASE_URL });
}

/** The actor of a request to this app (route handlers, server components). */
export function currentActor(headers: Headers): Promise<Actor | null> {
  return resolveActor(getDb(), headers, appAuth);
}

/** The actor, session and refusal reason of a request (the tRPC endpoint). */
export function currentCredentials(headers: Headers): Promise<RequestCredentials> {
  return resolveCredentials(getDb(), headers, appAuth);
}
