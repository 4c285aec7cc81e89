"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";

/** After any change to a dataset: the list and every dataset page read again (queries stay fresh 30 s otherwise). */
export function useRefreshDatasets(): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: trpc.datasets.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.datasets.get.queryKey() })]);
  };
}
