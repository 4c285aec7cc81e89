"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { RelativeTime } from "@/components/ui/relative-time";
import { workflowNameProblem } from "@/server/workflows/definition/workflow-name";

const BUTTON = "rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium disabled:opacity-40";

/**
 * A stored workflow's name and standing: Rename (a new version carries the new name; the page
 * moves to it) and Archive/Unarchive (an archived workflow is hidden from the default list and
 * cannot run; its versions and runs stay).
 */
export function WorkflowLifecycle({ name, archivedAt }: { name: string; archivedAt: Date | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [renaming, setRenaming] = useState(false);
  const [newName, setNewName] = useState(name);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.workflow.pathKey() });
  const rename = useMutation(
    trpc.workflow.rename.mutationOptions({
      onSuccess: async (renamed) => {
        await refresh();
        router.replace(`/workflows/${encodeURIComponent(renamed.name)}`);
      },
    }),
  );
  const archive = useMutation(trpc.workflow.setArchived.mutationOptions({ onSuccess: refresh }));
  const trimmed = newName.trim();
  const problem = workflowNameProblem(trimmed);
  const error = rename.error ?? archive.error;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        {renaming ? (
          <form
            className="flex flex-wrap items-center gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              if (problem === null && trimmed !== name) rename.mutate({ name, newName: trimmed });
            }}
          >
            <label htmlFor="rename-workflow" className="text-sm text-slate-600">
              New name
            </label>
            <input id="rename-workflow" value={newName} maxLength={200} aria-invalid={problem !== null} onChange={(event) => setNewName(event.target.value)} className="rounded-md border border-slate-300 px-2 py-1 text-sm" />
            <button type="submit" disabled={problem !== null || trimmed === name || rename.isPending} className={BUTTON}>
              Rename
            </button>
            <button type="button" onClick={() => (setRenaming(false), setNewName(name), rename.reset())} className={BUTTON}>
              Cancel
            </button>
            {problem !== null && (
              <span role="alert" className="text-sm text-red-700">
                Name {problem}.
              </span>
            )}
          </form>
        ) : (
          <button type="button" onClick={() => setRenaming(true)} className={BUTTON}>
            Rename…
          </button>
        )}
        <button type="button" disabled={archive.isPending} onClick={() => archive.mutate({ name, archived: archivedAt === null })} className={BUTTON}>
          {archivedAt === null ? "Archive" : "Unarchive"}
        </button>
      </div>
      {archivedAt !== null && (
        <p role="status" data-testid="archived-note" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Archived <RelativeTime date={archivedAt} />: hidden from the workflow list and cannot be run. Its versions and runs are kept.
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error.message}
        </p>
      )}
    </div>
  );
}
