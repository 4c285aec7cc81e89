import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import superjson from "superjson";

/**
 * One factory for the server (a client per request) and the browser (one per tab), so data
 * prefetched in a server component hydrates unchanged: superjson keeps Dates as Dates.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Data rendered on the server is fresh; without a stale time the browser would refetch at once.
      queries: { staleTime: 30_000 },
      dehydrate: {
        serializeData: superjson.serialize,
        // Pending queries too, so a server component may start a query without awaiting it.
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
