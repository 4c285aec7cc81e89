"use client";

import { useState, type ReactNode } from "react";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";
import { makeQueryClient } from "./query-client";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * A relative URL is enough: pages prefetch on the server through server/api/rsc.ts, so the
 * only requests this client makes come from the browser.
 */
const TRPC_URL = "/api/trpc";

/**
 * Queries whose input can be far longer than a URL may be (a GET past about 16 KB of URL is
 * refused with HTTP 431): they travel as POST, with the input in the body.
 */
const QUERIES_SENT_AS_POST = new Set(["workflow.check"]);

let browserQueryClient: QueryClient | undefined;

function getQueryClient(): QueryClient {
  // On the server every render gets its own client, so requests never share cached data.
  if (typeof window === "undefined") return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          // Subscriptions stream over server-sent events; everything else is batched.
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ url: TRPC_URL, transformer: superjson }),
          false: splitLink({
            condition: (op) => QUERIES_SENT_AS_POST.has(op.path),
            true: httpLink({ url: TRPC_URL, transformer: superjson, methodOverride: "POST" }),
            // The server refuses batches of more than 10 calls (server/api/request-limits.ts).
            false: httpBatchLink({ url: TRPC_URL, transformer: superjson, maxItems: 10 }),
          }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
