/**
 * Server-component access to tRPC: procedures are called in-process (no HTTP round trip) into
 * a per-request QueryClient, whose cache <HydrateClient> hands to the client components.
 */
import "server-only";
import { createElement, cache, type ReactNode } from "react";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { makeQueryClient } from "@/components/providers/query-client";
import { headers } from "next/headers";
import { currentActor } from "@/server/auth/app-auth";
import { getDb } from "@/server/persistence/db";
import { appRouter } from "./root";
import { createTRPCContext } from "./trpc";

/** The same QueryClient for every call within one request. */
export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  // The signed-in person of this request: procedures check roles for server components too.
  ctx: cache(async () => createTRPCContext({ db: getDb(), actor: await currentActor(await headers()) })),
  router: appRouter,
  queryClient: getQueryClient,
});

export function HydrateClient({ children }: { children: ReactNode }) {
  return createElement(HydrationBoundary, { state: dehydrate(getQueryClient()) }, children);
}
