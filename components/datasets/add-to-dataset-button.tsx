"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ModalDialog } from "@/components/runs/modal-dialog";
import { Button } from "@/components/ui/button";
import { fieldClass } from "@/components/ui/select";
import { DATASET_LIMITS } from "@/server/datasets/limits";
import { useRefreshDatasets } from "./use-refresh-datasets";

/** What becomes the case: a finished run, or a decided escalation (whose comment can become the rubric). */
export type AddToDatasetSource = { kind: "run"; runId: string } | { kind: "escalation"; escalationId: string; comment: string | null };

/**
 * "Add to dataset": copies the run's (or the escalation's run's) specification and variables
 * into a dataset, existing or new, as a new version. Shows where the case went.
 */
export function AddToDatasetButton({ source }: { source: AddToDatasetSource }) {
  const trpc = useTRPC();
  const mayEdit = usePermission("edit_dataset");
  const reasonId = useId();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const datasets = useQuery({ ...trpc.datasets.list.queryOptions(), enabled: open });
  const refresh = useRefreshDatasets();
  const onSuccess = () => {
    setOpen(false);
    void refresh();
  };
  const fromRun = useMutation(trpc.datasets.addFromRun.mutationOptions({ onSuccess }));
  const fromEscalation = useMutation(trpc.datasets.addFromEscalation.mutationOptions({ onSuccess }));
  const mutation = source.kind === "run" ? fromRun : fromEscalation;
  const added = mutation.data;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const datasetName = String(form.get("datasetName") ?? "").trim();
    if (source.kind === "run") fromRun.mutate({ runId: source.runId, datasetName });
    // Always sent, so clearing the prefilled comment means "no rubric".
    else fromEscalation.mutate({ escalationId: source.escalationId, datasetName, rubric: String(form.get("rubric") ?? "") });
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button onClick={() => (mutation.reset(), setOpen(true))} disabled={!mayEdit.allowed} aria-describedby={mayEdit.reason ? reasonId : undefined}>
        Add to dataset
      </Button>
      <RefusalNote id={reasonId} reason={mayEdit.reason} />
      {added && (
        <span role="status" className="text-sm text-slate-700" data-testid="added-to-dataset">
          Added as{" "}
          <Link href={`/datasets/${added.datasetId}?version=${added.version}`} className="font-medium text-sky-700 hover:underline">
            {added.key} (v{added.version})
          </Link>
        </span>
      )}
      {open && (
        <ModalDialog title="Add to dataset" className="max-w-lg" onClose={() => setOpen(false)}>
          {(close) => (
            <form onSubmit={submit} className="space-y-3">
              <p className="text-sm text-slate-600">
                {source.kind === "run" ? "The run's specification and variables become a case of the dataset, saved as a new version." : "The run's specification and variables become a case; the rubric says how later outputs are judged."}
              </p>
              <label className="flex flex-col gap-1 text-sm font-medium">
                Dataset
                <input name="datasetName" required list={listId} maxLength={DATASET_LIMITS.datasetNameChars} className={fieldClass} autoComplete="off" />
                <span className="text-xs font-normal text-slate-500">An existing dataset, or a new name to create one.</span>
              </label>
              <datalist id={listId}>
                {datasets.data?.map((dataset) => <option key={dataset.id} value={dataset.name} />)}
              </datalist>
              {source.kind === "escalation" && (
                <label className="flex flex-col gap-1 text-sm font-medium">
                  Rubric
                  <textarea name="rubric" rows={3} defaultValue={source.comment ?? ""} maxLength={DATASET_LIMITS.rubricChars} className={fieldClass} />
                </label>
              )}
              {mutation.error && (
                <p role="alert" className="text-sm text-red-700">
                  {mutation.error.message}
                </p>
              )}
              <div className="flex justify-end gap-2">
                <Button onClick={close}>Cancel</Button>
                <Button type="submit" variant="primary" disabled={mutation.isPending}>
                  {mutation.isPending ? "Adding…" : "Add"}
                </Button>
              </div>
            </form>
          )}
        </ModalDialog>
      )}
    </span>
  );
}
