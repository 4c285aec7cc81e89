"use client";

import { useEffect, useMemo, useState, type ChangeEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { StateMachineGraph } from "@/components/state-machine/state-machine-graph";
import { RelativeTime } from "@/components/ui/relative-time";
import type { RouterOutputs } from "@/server/api/root";

type Machine = NonNullable<RouterOutputs["workflow"]["check"]["machine"]>;
const CHECK_AFTER_MS = 300;

/**
 * A workflow's document with a live check: every problem with its place, the states concerned
 * marked on the machine, which redraws as soon as the document is valid. Save stores a new
 * version; Import YAML loads a file into the editor (nothing is stored until Save).
 */
export function WorkflowEditor({ name }: { name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [version, setVersion] = useState<number | undefined>(undefined);
  const versions = useQuery(trpc.workflow.versions.queryOptions({ name }));
  const stored = useQuery(trpc.workflow.export.queryOptions({ name, version }));
  const [text, setText] = useState<string | null>(null);
  const [checked, setChecked] = useState("");
  const document = text ?? stored.data ?? "";
  useEffect(() => {
    const timer = setTimeout(() => setChecked(document), CHECK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [document]);
  const check = useQuery({ ...trpc.workflow.check.queryOptions({ document: checked }), enabled: checked !== "", placeholderData: (previous) => previous });
  // While the document is invalid, the stored version's machine stays on screen with the problems marked.
  const storedCheck = useQuery({ ...trpc.workflow.check.queryOptions({ document: stored.data ?? "" }), enabled: Boolean(stored.data) });
  const problemStates = useMemo(() => Object.values(check.data?.problemStates ?? {}), [check.data]);
  const save = useMutation(
    trpc.workflow.save.mutationOptions({
      onSuccess: async (saved) => {
        setText(null);
        setVersion(undefined);
        await queryClient.invalidateQueries({ queryKey: trpc.workflow.versions.queryKey({ name }) });
        await queryClient.invalidateQueries({ queryKey: trpc.workflow.export.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.workflow.list.queryKey() });
        setSavedNote(saved.created ? `Saved as version ${saved.version}` : `No change: version ${saved.version} already holds this definition`);
      },
    }),
  );
  const [savedNote, setSavedNote] = useState<string | null>(null);

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
    event.target.value = "";
  }

  function exportFile() {
    const url = URL.createObjectURL(new Blob([document], { type: "application/yaml" }));
    const link = Object.assign(window.document.createElement("a"), { href: url, download: `${name}.yaml` });
    link.click();
    URL.revokeObjectURL(url);
  }

  const problems = check.data?.problems ?? [];
  const machine: Machine | null = check.data?.machine ?? storedCheck.data?.machine ?? null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{name}</h1>
        <div className="flex flex-wrap items-center gap-2">
          <input id="import-file" type="file" accept=".yaml,.yml,.json" className="hidden" onChange={importFile} data-testid="import-file" />
          <button type="button" onClick={() => window.document.getElementById("import-file")?.click()} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium">
            Import YAML
          </button>
          <button type="button" onClick={exportFile} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium">
            Export YAML
          </button>
          <button
            type="button"
            disabled={save.isPending || problems.length > 0 || checked !== document}
            onClick={() => save.mutate({ document })}
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-40"
          >
            Save
          </button>
        </div>
      </div>
      {savedNote && <p role="status" className="text-sm text-emerald-700">{savedNote}</p>}
      {save.error && <p role="alert" className="whitespace-pre-wrap text-sm text-red-700">{save.error.message}</p>}
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="space-y-2">
          <label htmlFor="workflow-document" className="text-sm font-medium text-slate-700">
            Workflow document (YAML) {version !== undefined ? `· version ${version}` : "· latest version"}
          </label>
          <textarea
            id="workflow-document"
            spellCheck={false}
            value={document}
            onChange={(event) => setText(event.target.value)}
            className="h-[520px] w-full rounded-md border border-slate-300 p-3 font-mono text-xs leading-5"
          />
        </div>
        <div className="space-y-3">
          {machine ? <StateMachineGraph machine={machine} height={380} problemStates={problemStates} /> : <p className="text-sm text-slate-500">The machine appears here once the document is valid.</p>}
          <div aria-live="polite" data-testid="problems">
            {problems.length === 0 ? (
              check.data && <p className="text-sm text-emerald-700">Valid.</p>
            ) : (
              <ul className="space-y-1 text-sm text-red-800">
                {problems.map((problem, index) => (
                  <li key={index} data-testid="problem" className="rounded bg-red-50 px-2 py-1 font-mono text-xs">
                    {problem.line !== undefined ? `line ${problem.line}${problem.column !== undefined ? `:${problem.column}` : ""} · ` : ""}
                    {problem.path}: {problem.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <section aria-label="Versions" className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
            <h2 className="mb-2 font-semibold text-slate-900">Versions</h2>
            <ul className="space-y-1">
              {versions.data?.versions.map((entry) => (
                <li key={entry.version} className="flex items-center justify-between gap-2" data-testid="version-row">
                  <button type="button" className="underline" onClick={() => (setText(null), setVersion(entry.version))}>
                    v{entry.version}
                  </button>
                  <span className="text-slate-500">
                    {entry.runs} {entry.runs === 1 ? "run" : "runs"} · <RelativeTime date={entry.createdAt} />
                  </span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </div>
  );
}
