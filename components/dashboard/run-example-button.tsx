"use client";

import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";

/** The first-run guide's one click: a run of the example replaying its bundled cassette, then its live page. */
export function RunExampleButton({ workflowId, again }: { workflowId: string; again: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const createRun = useMutation(
    trpc.run.create.mutationOptions({
      onSuccess: async ({ id }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.overview.firstRunGuide.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.run.listRecent.queryKey() });
        router.push(`/runs/${id}`);
      },
    }),
  );
  return (
    <span className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        onClick={() => createRun.mutate({ workflowId, generator: "replay" })}
        disabled={createRun.isPending}
        className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
      >
        {createRun.isPending ? "Starting…" : again ? "Run the example again" : "Run the example"}
      </button>
      {createRun.error && (
        <span role="alert" className="text-red-700">
          {createRun.error.message}
        </span>
      )}
    </span>
  );
}
