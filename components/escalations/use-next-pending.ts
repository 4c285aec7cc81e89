"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";

/**
 * Goes to the pending escalation after `escalationId` in queue order (the server decides which:
 * oldest deadline first, none claimed by someone else); says so when there is none.
 */
export function useNextPending(escalationId: string): { goNext: () => void; busy: boolean; message: string | null } {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  function goNext() {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    // Asked afresh each time: the queue changes while a reviewer reads.
    queryClient
      .fetchQuery({ ...trpc.escalation.nextPending.queryOptions({ after: escalationId }), staleTime: 0 })
      .then(({ id }) => {
        if (id) router.push(`/escalations/${id}`);
        else setMessage("No other escalation is waiting for a decision.");
      })
      .catch((error: unknown) => setMessage(error instanceof Error ? error.message : "Could not find the next escalation."))
      .finally(() => setBusy(false));
  }
  return { goNext, busy, message };
}
