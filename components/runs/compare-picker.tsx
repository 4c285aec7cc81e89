"use client";

import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { compareHref } from "./compare-href";
import { ModalDialog } from "./modal-dialog";

/** Choose the run to compare this one with: another run of the same workflow, or any run by its id. */
function ComparePickerForm({ runId, workflowName, onCancel }: { runId: string; workflowName: string | null; onCancel: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [other, setOther] = useState("");
  const pasteId = useId();
  const runs = useQuery({ ...trpc.run.listRecent.queryOptions({ limit: 20, ...(workflowName ? { workflow: workflowName } : {}) }), enabled: workflowName !== null });
  const candidates = (runs.data ?? []).filter((candidate) => candidate.id !== runId);
  const target = other.trim();
  return (
    <form
      className="space-y-4 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        if (target && target !== runId) router.push(compareHref(runId, target));
      }}
    >
      {workflowName && (
        <fieldset className="space-y-1">
          <legend className="mb-1 font-medium text-slate-800">Another run of {workflowName}</legend>
          {runs.isPending && <p className="text-slate-500">Loading runs…</p>}
          {runs.isError && <p role="alert" className="text-red-700">{runs.error.message}</p>}
          {runs.isSuccess && candidates.length === 0 && <p className="text-slate-500">No other run of this workflow yet.</p>}
          <ul className="max-h-60 space-y-1 overflow-auto">
            {candidates.map((candidate) => (
              <li key={candidate.id}>
                <label className="flex items-center gap-2 rounded px-1 py-0.5 hover:bg-slate-50">
                  <input type="radio" name="other-run" value={candidate.id} checked={target === candidate.id} onChange={() => setOther(candidate.id)} />
                  <span className="font-mono text-xs">{candidate.id}</span>
                  <span className="text-xs text-slate-500">
                    v{candidate.workflow?.version} · {candidate.status} · {candidate.createdAt.toLocaleString()}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      <div className="space-y-1">
        <label htmlFor={pasteId} className="block font-medium text-slate-800">
          Or paste a run id
        </label>
        <input id={pasteId} value={other} onChange={(event) => setOther(event.target.value)} className="w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs" />
        {target === runId && <p className="text-xs text-red-700">That is this run: choose another one.</p>}
      </div>
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onCancel} className="rounded-md border border-slate-300 px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-50">
          Close
        </button>
        <button type="submit" disabled={!target || target === runId} className="rounded-md bg-slate-900 px-3 py-1.5 font-medium text-white hover:bg-slate-700 disabled:opacity-50">
          Compare
        </button>
      </div>
    </form>
  );
}

/** "Compare with…": this run as A, the chosen one as B. */
export function ComparePicker({ runId, workflowName }: { runId: string; workflowName: string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50">
        Compare with…
      </button>
      {open && (
        <ModalDialog title="Compare with another run" className="max-w-xl" onClose={() => setOpen(false)}>
          {(close) => <ComparePickerForm runId={runId} workflowName={workflowName} onCancel={close} />}
        </ModalDialog>
      )}
    </>
  );
}
