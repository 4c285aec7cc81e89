"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePermission, useSignedInUser } from "@/components/auth/signed-in-user";
import { useTRPC } from "@/components/providers/trpc-provider";

/**
 * Who has this escalation, and Claim (or take it over) for a reviewer who does not and may: one
 * outside the group the escalation is offered to (`refusal`, the review's decideRefusal) may not.
 */
export function ClaimControl({ escalationId, claimedBy, pending, refusal = null }: { escalationId: string; claimedBy: string | null; pending: boolean; refusal?: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useSignedInUser()?.email ?? null;
  const { allowed } = usePermission("claim_escalation");
  const claim = useMutation(trpc.escalation.claim.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.escalation.pathKey() }) }));
  const holder = claimedBy === null ? "nobody" : claimedBy === me ? "you" : claimedBy;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span data-testid="claimed-by">Claimed by {holder}</span>
      {pending && allowed && refusal === null && claimedBy !== me && (
        <button
          type="button"
          disabled={claim.isPending}
          onClick={() => claim.mutate({ escalationId, steal: claimedBy !== null })}
          className="rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-100 disabled:opacity-50"
        >
          {claimedBy === null ? "Claim" : `Take over from ${claimedBy}`}
        </button>
      )}
      {claim.error && (
        <span role="alert" className="text-xs text-red-700">
          {claim.error.message}
        </span>
      )}
    </span>
  );
}
