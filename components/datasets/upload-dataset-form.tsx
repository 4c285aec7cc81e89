"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { fieldClass } from "@/components/ui/select";
import { DATASET_LIMITS } from "@/server/datasets/limits";
import type { DatasetFileError } from "@/server/datasets/types";
import { FileErrors } from "./file-errors";
import { useRefreshDatasets } from "./use-refresh-datasets";

const ACCEPT = ".jsonl,.csv,.yaml,.yml";

/** The dataset name a file suggests: its name without the extension, as a dataset name may be written. */
function nameFromFile(fileName: string): string {
  return fileName.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9 ._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, DATASET_LIMITS.datasetNameChars);
}

/**
 * Uploads a JSONL, CSV or YAML file as the next version of a dataset (a new one when the name is
 * new). A file with mistakes is not stored; its problems are listed by line and field.
 */
export function UploadDatasetForm({ initialName = "" }: { initialName?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const mayEdit = usePermission("edit_dataset");
  const refresh = useRefreshDatasets();
  const reasonId = useId();
  const [name, setName] = useState(initialName);
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<{ fileName: string; errors: DatasetFileError[] } | null>(null);
  const [localProblem, setLocalProblem] = useState<string | null>(null);
  const upload = useMutation(
    trpc.datasets.upload.mutationOptions({
      onSuccess: async (result, input) => {
        if (!result.ok) return setProblems({ fileName: input.fileName, errors: result.errors });
        await refresh();
        router.push(`/datasets/${result.datasetId}?version=${result.version}`);
      },
    }),
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblems(null);
    setLocalProblem(null);
    if (!file) return setLocalProblem("Choose a file");
    // Refused here too so a huge file is not read into the page and sent only to be refused.
    if (file.size > DATASET_LIMITS.fileBytes) return setLocalProblem(`${file.name} is ${file.size} bytes; the limit is ${DATASET_LIMITS.fileBytes} bytes (4 MiB)`);
    const description = String(new FormData(event.currentTarget).get("description") ?? "").trim();
    upload.mutate({ name, fileName: file.name, text: await file.text(), ...(description ? { description } : {}) });
  }

  return (
    <div className="space-y-6">
      <form onSubmit={submit} aria-label="Upload a dataset" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <label className="flex flex-col gap-1 text-sm font-medium">
          File (JSONL, CSV or YAML)
          <input
            type="file"
            name="file"
            accept={ACCEPT}
            required
            className="text-sm"
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null;
              setFile(chosen);
              setProblems(null);
              if (chosen && name.trim() === "") setName(nameFromFile(chosen.name));
            }}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Dataset name
          <input name="name" required value={name} onChange={(event) => setName(event.target.value)} maxLength={DATASET_LIMITS.datasetNameChars} className={fieldClass} />
          <span className="text-xs font-normal text-slate-500">An existing name adds a new version to that dataset; a new name creates one.</span>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Description (optional)
          <input name="description" maxLength={DATASET_LIMITS.descriptionChars} className={fieldClass} />
        </label>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="primary" disabled={upload.isPending || !mayEdit.allowed} aria-describedby={mayEdit.reason ? reasonId : undefined}>
            {upload.isPending ? "Uploading…" : "Upload"}
          </Button>
          <RefusalNote id={reasonId} reason={mayEdit.reason} />
        </div>
        {(localProblem ?? upload.error?.message) && (
          <p role="alert" className="text-sm text-red-700">
            {localProblem ?? upload.error?.message}
          </p>
        )}
      </form>
      {problems && <FileErrors fileName={problems.fileName} errors={problems.errors} />}
    </div>
  );
}
