"use client";

import { useEffect, useMemo, useState, type ChangeEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { canRedo, canUndo, record, redo, startHistory, undo, type History } from "@/components/designer/history";
import { useUndoShortcuts } from "@/components/designer/use-undo-shortcuts";
import { WorkflowDesigner } from "@/components/designer/workflow-designer";
import { VersionCompare } from "@/components/designer/version-compare";
import { blankDocument } from "@/components/designer/workflow-draft";
import { StateMachineGraph } from "@/components/state-machine/state-machine-graph";
import { RelativeTime } from "@/components/ui/relative-time";
import { EditorRunButton } from "./editor-run-button";
import { useLeaveWarning } from "./use-leave-warning";
import type { RouterOutputs } from "@/server/api/root";

type Machine = NonNullable<RouterOutputs["workflow"]["check"]["machine"]>;
const CHECK_AFTER_MS = 300;

type Tab = "designer" | "yaml";
const TABS: readonly (readonly [Tab, string])[] = [
  ["designer", "Designer"],
  ["yaml", "YAML"],
];
// An unknown workflow is a new one: no point retrying its 404s before showing the blank document.
const retryUnlessMissing = (failures: number, error: { data?: { code?: string } | null }) => error.data?.code !== "NOT_FOUND" && failures < 3;

/**
 * A workflow's document with a live check: every problem with its place, the states concerned
 * marked on the machine, which redraws as soon as the document is valid. The designer tab edits
 * the same document visually; both tabs share one undo history. Save stores a new version;
 * Import YAML loads a file into the editor (nothing is stored until Save). A name with no stored
 * workflow starts from a blank machine or from a bundled example (`example`).
 */
export function WorkflowEditor({ name, example }: { name: string; example?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [version, setVersion] = useState<number | undefined>(undefined);
  const versions = useQuery({ ...trpc.workflow.versions.queryOptions({ name }), retry: retryUnlessMissing });
  const stored = useQuery({ ...trpc.workflow.export.queryOptions({ name, version }), retry: retryUnlessMissing });
  const isNew = stored.error?.data?.code === "NOT_FOUND" && version === undefined;
  // A new workflow started from an example opens on the example's document under the new name.
  const fromExample = useQuery({ ...trpc.workflow.fromExample.queryOptions({ example: example ?? "", name }), enabled: isNew && example !== undefined });
  const newDocument = example === undefined ? blankDocument(name) : (fromExample.data ?? "");
  const base = stored.data ?? (isNew ? newDocument : "");
  // null until the first edit: the document is then the stored version (or the blank one).
  const [history, setHistory] = useState<History<string> | null>(null);
  const [tab, setTab] = useState<Tab>("designer");
  const [checked, setChecked] = useState("");
  const document = history?.present ?? base;
  const edit = (next: string, group: string | null = null) => setHistory((current) => record(current ?? startHistory(base), next, group));
  useUndoShortcuts(
    () => setHistory((current) => current && undo(current)),
    () => setHistory((current) => current && redo(current)),
  );
  useEffect(() => {
    const timer = setTimeout(() => setChecked(document), CHECK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [document]);
  const check = useQuery({ ...trpc.workflow.check.queryOptions({ document: checked }), enabled: checked !== "", placeholderData: (previous) => previous });
  // While the document is invalid, the stored version's machine stays on screen with the problems marked.
  const storedCheck = useQuery({ ...trpc.workflow.check.queryOptions({ document: stored.data ?? "" }), enabled: Boolean(stored.data) });
  // Run starts a saved version, so it needs the workflow's summary (its id, latest version, cassette).
  const summary = useQuery(trpc.workflow.list.queryOptions()).data?.find((workflow) => workflow.name === name);
  // The text last saved: the stored version comes back re-serialised, so it rarely equals what was typed.
  const [savedDocument, setSavedDocument] = useState<string | null>(null);
  const unsaved = history !== null && document !== stored.data && document !== savedDocument;
  useLeaveWarning(unsaved);
  const problemStates = useMemo(() => Object.values(check.data?.problemStates ?? {}), [check.data]);
  const problemMarks = useMemo(() => ({ states: problemStates, transitions: Object.values(check.data?.problemTransitions ?? {}) }), [problemStates, check.data]);
  const save = useMutation(
    trpc.workflow.save.mutationOptions({
      onSuccess: async (saved, { document: savedText }) => {
        if (savedText !== undefined) setSavedDocument(savedText);
        // The history stays: what is on screen is what was saved, and undo still reaches back.
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
    if (file) edit(await file.text());
    event.target.value = "";
  }

  function exportFile() {
    const url = URL.createObjectURL(new Blob([document], { type: "application/yaml" }));
    const link = Object.assign(window.document.createElement("a"), { href: url, download: `${name}.yaml` });
    link.click();
    URL.revokeObjectURL(url);
  }

  const problems = check.data?.problems ?? [];
  const cannotSave = save.isPending ? "a save is under way" : checked !== document ? "the document is still being checked" : problems.length > 0 ? "the document has problems (listed below the editor)" : null;
  const machine: Machine | null = check.data?.machine ?? storedCheck.data?.machine ?? null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight text-slate-900">
          {name}
          {unsaved && (
            <span data-testid="unsaved-marker" className="rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">
              Unsaved changes
            </span>
          )}
        </h1>
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
            disabled={cannotSave !== null}
            onClick={() => save.mutate({ document })}
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-40"
          >
            Save
          </button>
          <EditorRunButton workflow={summary} unsaved={unsaved} cannotSave={cannotSave} save={async () => (await save.mutateAsync({ document })).version} />
        </div>
      </div>
      {savedNote && <p role="status" className="text-sm text-emerald-700">{savedNote}</p>}
      {save.error && <p role="alert" className="whitespace-pre-wrap text-sm text-red-700">{save.error.message}</p>}
      {fromExample.error && <p role="alert" className="text-sm text-red-700">{fromExample.error.message}</p>}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="tablist" aria-label="Editor" className="inline-flex rounded-md border border-slate-300 p-0.5">
          {TABS.map(([id, label]) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`tab-${id}`}
              aria-selected={tab === id}
              aria-controls="editor-panel"
              onClick={() => setTab(id)}
              className={`rounded px-3 py-1 text-sm font-medium ${tab === id ? "bg-slate-900 text-white" : "text-slate-700"}`}
            >
              {label}
            </button>
          ))}
        </div>
        <div className="flex items-center gap-2">
          <button type="button" disabled={!history || !canUndo(history)} onClick={() => setHistory((current) => current && undo(current))} title="Ctrl+Z" className="rounded-md border border-slate-300 px-3 py-1 text-sm disabled:opacity-40">
            Undo
          </button>
          <button type="button" disabled={!history || !canRedo(history)} onClick={() => setHistory((current) => current && redo(current))} title="Ctrl+Shift+Z" className="rounded-md border border-slate-300 px-3 py-1 text-sm disabled:opacity-40">
            Redo
          </button>
        </div>
      </div>
      <div role="tabpanel" id="editor-panel" aria-labelledby={`tab-${tab}`}>
        {tab === "designer" ? (
          document !== "" && <WorkflowDesigner workflow={name} document={document} problems={problemMarks} onEdit={edit} />
        ) : (
          <div className="grid gap-4 lg:grid-cols-2">
            <div className="space-y-2">
              <label htmlFor="workflow-document" className="text-sm font-medium text-slate-700">
                Workflow document (YAML) {version !== undefined ? `· version ${version}` : "· latest version"}
              </label>
              <textarea
                id="workflow-document"
                spellCheck={false}
                value={document}
                onChange={(event) => edit(event.target.value, "yaml")}
                className="h-[520px] w-full rounded-md border border-slate-300 p-3 font-mono text-xs leading-5"
              />
            </div>
            {machine ? <StateMachineGraph machine={machine} height={520} problemStates={problemStates} /> : <p className="text-sm text-slate-500">The machine appears here once the document is valid.</p>}
          </div>
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="space-y-3">
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
        </div>
        <div>
          <section aria-label="Versions" className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
            <h2 className="mb-2 font-semibold text-slate-900">Versions</h2>
            <ul className="space-y-1">
              {versions.data?.versions.map((entry) => (
                <li key={entry.version} className="flex items-center justify-between gap-2" data-testid="version-row">
                  <button type="button" className="underline" onClick={() => (setHistory(null), setVersion(entry.version))}>
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
      {/* Keyed by the latest version, so a new save compares it with the one before. */}
      {(versions.data?.versions.length ?? 0) >= 2 && <VersionCompare key={versions.data!.versions[0]!.version} workflow={name} versions={versions.data!.versions.map((entry) => entry.version)} />}
    </div>
  );
}
