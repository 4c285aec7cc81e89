/**
 * Server-component access to tRPC: procedures are called in-process (no HTTP round trip) into
 * a per-request QueryClient, whose cache <HydrateClient> hands to the client components.
 */
import "server-only";
import { createElement, cache, type ReactNode } from "react";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { makeQueryClient } from "@/components/providers/query-client";
import { getDb } from "@/server/persistence/db";
import { appRouter } from "./root";
import { createTRPCContext } from "./trpc";

/** The same QueryClient for every call within one request. */
export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: () => createTRPCContext({ db: getDb() }),
  router: appRouter,
  queryClient: getQueryClient,
});

export function HydrateClient({ children }: { children: ReactNode }) {
  return createElement(HydrationBoundary, { state: dehydrate(getQueryClient()) }, children);
}
