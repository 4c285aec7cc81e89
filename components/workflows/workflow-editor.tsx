"use client";

import { useMemo, useState, type ChangeEvent } from "react";
import dynamic from "next/dynamic";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { canRedo, canUndo, record, redo, startHistory, undo, type History } from "@/components/designer/history";
import { useUndoShortcuts } from "@/components/designer/use-undo-shortcuts";
import { WorkflowDesigner } from "@/components/designer/workflow-designer";
import { StepTestScope } from "@/components/designer/step-test/step-test-scope";
import { VersionCompare } from "@/components/designer/version-compare";
import { blankDocument } from "@/components/designer/workflow-draft";
import { StateMachineGraph } from "@/components/state-machine/state-machine-graph";
import { RelativeTime } from "@/components/ui/relative-time";
import { EditorRunButton } from "./editor-run-button";
import { useLeaveWarning } from "./use-leave-warning";
import type { RouterOutputs } from "@/server/api/root";
import { ProblemList } from "./problem-list";
import { SavedNote, type SavedNoteProps } from "./saved-note";
import { WorkflowLifecycle } from "./workflow-lifecycle";
import { useDocumentCheck } from "./use-document-check";
import type { GoToPlace } from "./yaml-editor";

type Machine = NonNullable<RouterOutputs["workflow"]["check"]["machine"]>;
// The code editor is loaded on the YAML tab only, so other pages (and the designer tab) do not carry it.
const YamlEditor = dynamic(() => import("./yaml-editor"), { ssr: false, loading: () => <p className="h-[520px] text-sm text-slate-500">Loading the editor…</p> });
const EDITOR_LABEL_ID = "workflow-document-label";

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
export function WorkflowEditor({ name, example, language }: { name: string; example?: string; language?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [version, setVersion] = useState<number | undefined>(undefined);
  const versions = useQuery({ ...trpc.workflow.versions.queryOptions({ name }), retry: retryUnlessMissing });
  const stored = useQuery({ ...trpc.workflow.export.queryOptions({ name, version }), retry: retryUnlessMissing });
  const isNew = stored.error?.data?.code === "NOT_FOUND" && version === undefined;
  // A new workflow started from an example opens on the example's document under the new name.
  const fromExample = useQuery({ ...trpc.workflow.fromExample.queryOptions({ example: example ?? "", name }), enabled: isNew && example !== undefined });
  const newDocument = example === undefined ? blankDocument(name, language) : (fromExample.data ?? "");
  const base = stored.data ?? (isNew ? newDocument : "");
  // null until the first edit: the document is then the stored version (or the blank one).
  const [history, setHistory] = useState<History<string> | null>(null);
  const [tab, setTab] = useState<Tab>("designer");
  const [goTo, setGoTo] = useState<GoToPlace | null>(null);
  const document = history?.present ?? base;
  const edit = (next: string, group: string | null = null) => setHistory((current) => record(current ?? startHistory(base), next, group));
  useUndoShortcuts(
    () => setHistory((current) => current && undo(current)),
    () => setHistory((current) => current && redo(current)),
  );
  const { verdict, lastMachine } = useDocumentCheck(document, name);
  const checked = verdict.kind === "valid" || verdict.kind === "invalid" ? verdict.check : null;
  // While the document is invalid, the stored version's machine stays on screen with the problems marked.
  const storedCheck = useQuery({ ...trpc.workflow.check.queryOptions({ document: stored.data ?? "" }), enabled: Boolean(stored.data) });
  // Run starts a saved version, so it needs the workflow's summary (its id, latest version, cassette).
  const summary = useQuery(trpc.workflow.list.queryOptions({ includeArchived: true })).data?.find((workflow) => workflow.name === name);
  // The text last saved: the stored version comes back re-serialised, so it rarely equals what was typed.
  const [savedDocument, setSavedDocument] = useState<string | null>(null);
  const unsaved = history !== null && document !== stored.data && document !== savedDocument;
  useLeaveWarning(unsaved);
  const problemStates = useMemo(() => Object.values(checked?.problemStates ?? {}), [checked]);
  const warnedStates = useMemo(() => Object.values(checked?.warningStates ?? {}), [checked]);
  const problemMarks = useMemo(() => ({ states: problemStates, transitions: Object.values(checked?.problemTransitions ?? {}), warnedStates }), [problemStates, checked, warnedStates]);
  const save = useMutation(
    trpc.workflow.save.mutationOptions({
      onSuccess: async (saved, { document: savedText }) => {
        if (savedText !== undefined) setSavedDocument(savedText);
        // The history stays: what is on screen is what was saved, and undo still reaches back.
        setVersion(undefined);
        await queryClient.invalidateQueries({ queryKey: trpc.workflow.versions.queryKey({ name }) });
        await queryClient.invalidateQueries({ queryKey: trpc.workflow.export.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.workflow.list.queryKey() });
        setSavedNote({ text: saved.created ? `Saved as version ${saved.version}` : `No change: version ${saved.version} already holds this definition`, warnings: saved.warnings });
      },
    }),
  );
  const [savedNote, setSavedNote] = useState<SavedNoteProps | null>(null);
  const maySave = usePermission("save_workflow");

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

  const problems = useMemo(() => checked?.problems ?? [], [checked]);
  const warnings = useMemo(() => checked?.warnings ?? [], [checked]);
  const cannotSave = save.isPending
    ? "a save is under way"
    : !maySave.allowed
      ? maySave.reason
      : verdict.kind === "invalid"
        ? "the document has problems (listed below the editor)"
        : verdict.kind === "unavailable"
          ? "the document could not be checked"
          : verdict.kind !== "valid"
            ? "the document is still being checked"
            : null;
  const machine: Machine | null = lastMachine ?? storedCheck.data?.machine ?? null;
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
            onClick={() => save.mutate({ document, fallbackName: name })}
            title={maySave.reason ?? undefined}
            aria-describedby={maySave.reason ? "save-refusal" : undefined}
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-40"
          >
            Save
          </button>
          <RefusalNote id="save-refusal" reason={maySave.reason} />
          {summary?.archivedAt ? (
            <button type="button" disabled title="Archived: unarchive it to run it" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-40">
              Run
            </button>
          ) : (
            <EditorRunButton workflow={summary} unsaved={unsaved} cannotSave={cannotSave} save={async () => (await save.mutateAsync({ document, fallbackName: name })).version} />
          )}
        </div>
      </div>
      {summary && <WorkflowLifecycle name={name} archivedAt={summary.archivedAt} />}
      {savedNote && <SavedNote {...savedNote} />}
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
              onClick={() => {
                setTab(id);
                // A jump asked for earlier must not move the cursor again when the editor reopens.
                setGoTo(null);
              }}
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
          document !== "" && (
            <StepTestScope workflow={name} document={document}>
              <WorkflowDesigner workflow={name} document={document} problems={problemMarks} onEdit={edit} />
            </StepTestScope>
          )
        ) : (
          <div className="grid gap-4 lg:grid-cols-2">
            <div className="space-y-2">
              <span id={EDITOR_LABEL_ID} className="text-sm font-medium text-slate-700">
                Workflow document (YAML) {version !== undefined ? `· version ${version}` : "· latest version"}
              </span>
              <YamlEditor value={document} onChange={(next) => edit(next, "yaml")} labelledBy={EDITOR_LABEL_ID} problems={problems} warnings={warnings} goTo={goTo} />
            </div>
            {machine ? <StateMachineGraph machine={machine} height={520} problemStates={problemStates} warnedStates={warnedStates} /> : <p className="text-sm text-slate-500">The machine appears here once the document is valid.</p>}
          </div>
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="space-y-3">
          <ProblemList
            verdict={verdict}
            onGoTo={(problem) => {
              setTab("yaml");
              setGoTo((previous) => ({ line: problem.line, ...(problem.column !== undefined ? { column: problem.column } : {}), request: (previous?.request ?? 0) + 1 }));
            }}
          />
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
