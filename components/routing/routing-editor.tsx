"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import type { GoToPlace } from "@/components/workflows/yaml-editor";
import type { RouterOutputs } from "@/server/api/root";
import { DryRunTable } from "./dry-run-table";
import { STARTER_DOCUMENT } from "./starter-document";

const YamlEditor = dynamic(() => import("@/components/workflows/yaml-editor"), { ssr: false, loading: () => <p className="h-[520px] text-sm text-slate-500">Loading the editor…</p> });

type Problem = RouterOutputs["routing"]["validate"]["problems"][number];
type DryRun = RouterOutputs["routing"]["dryRun"];

const EDITOR_LABEL_ID = "routing-document-label";
const CHECK_DELAY_MS = 400;
const NO_PROBLEMS: readonly Problem[] = [];

/**
 * Admin → Routing: the routing document in a YAML editor, checked as it is typed (problems by line),
 * a dry run of the draft over the last escalations, saving as a new version, and the history.
 */
export function RoutingEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const current = useQuery(trpc.routing.current.queryOptions(undefined));
  const versions = useQuery(trpc.routing.versions.queryOptions());
  const [draft, setDraft] = useState<string | null>(null);
  const [checked, setChecked] = useState<{ text: string; problems: readonly Problem[] } | null>(null);
  const [goTo, setGoTo] = useState<GoToPlace | null>(null);
  const [comment, setComment] = useState("");
  const [count, setCount] = useState(50);
  const [dryRun, setDryRun] = useState<{ text: string; result: DryRun } | null>(null);
  const validate = useMutation(trpc.routing.validate.mutationOptions());
  const runDry = useMutation(trpc.routing.dryRun.mutationOptions());
  const save = useMutation(
    trpc.routing.save.mutationOptions({
      onSuccess: async () => {
        setComment("");
        await Promise.all([queryClient.invalidateQueries({ queryKey: trpc.routing.current.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.routing.versions.queryKey() })]);
      },
    }),
  );

  // Until someone types, the editor shows the version in force (or a starting point when there is none).
  const text = draft ?? (current.data ? current.data.source : current.isSuccess ? STARTER_DOCUMENT : null);
  const { mutate: check } = validate;
  useEffect(() => {
    if (text === null) return;
    const timer = setTimeout(() => check({ source: text }, { onSuccess: (answer) => setChecked({ text, problems: answer.problems }) }), CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, check]);

  if (text === null) return <p className="text-sm text-slate-500">{current.error ? current.error.message : "Loading the routing document…"}</p>;
  const problems = checked?.text === text ? checked.problems : NO_PROBLEMS;
  const verdict = checked?.text !== text ? "checking…" : problems.length === 0 ? "valid" : `${problems.length} problem(s)`;
  const inForce = current.data?.version ?? null;

  return (
    <div className="space-y-6">
      <p className="max-w-3xl text-sm text-slate-600">
        Rules are tried in order; the first whose every condition holds gives the escalation its reviewer group, quorum, deadline, backup and channels. What a rule leaves out
        comes from <code>default</code>. Saving makes a new version, in force for escalations routed from then on. See docs/routing.md.
      </p>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span id={EDITOR_LABEL_ID} className="font-medium text-slate-800">
          Routing document {draft === null ? (inForce ? `(version ${inForce}, in force)` : "(none saved yet: every escalation goes to every reviewer)") : "(edited)"}
        </span>
        <span data-testid="routing-verdict" className={problems.length > 0 ? "text-red-700" : "text-slate-500"}>
          {verdict}
        </span>
      </div>
      <YamlEditor value={text} onChange={setDraft} labelledBy={EDITOR_LABEL_ID} problems={problems} warnings={NO_PROBLEMS} goTo={goTo} />
      {problems.length > 0 && (
        <ul aria-label="Problems" className="space-y-1 text-sm text-red-700">
          {problems.map((problem, index) => (
            <li key={index} data-testid="routing-problem">
              {problem.line !== undefined ? (
                <button type="button" className="underline" onClick={() => setGoTo({ line: problem.line!, column: problem.column, request: Date.now() })}>
                  line {problem.line}
                </button>
              ) : null}
              {problem.line !== undefined ? " " : ""}
              <code>{problem.path}</code>: {problem.message}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Comment (optional)
          <input value={comment} onChange={(event) => setComment(event.target.value)} maxLength={500} className="w-80 rounded-md border border-slate-300 px-2 py-1.5 text-sm" />
        </label>
        <Button variant="primary" disabled={save.isPending || problems.length > 0 || checked?.text !== text} onClick={() => save.mutate({ source: text, comment: comment || undefined }, { onSuccess: () => setDraft(null) })}>
          Save as a new version
        </Button>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Escalations
          <input type="number" min={1} max={200} value={count} onChange={(event) => setCount(Math.min(200, Math.max(1, Number(event.target.value) || 1)))} className="w-24 rounded-md border border-slate-300 px-2 py-1.5 text-sm" />
        </label>
        <Button disabled={runDry.isPending} onClick={() => runDry.mutate({ source: text, count }, { onSuccess: (result) => setDryRun({ text, result }) })}>
          Dry run
        </Button>
        {save.isSuccess && draft === null && <span className="text-sm text-emerald-700">Saved as version {save.data.version}</span>}
      </div>
      {(save.error ?? runDry.error) && (
        <p role="alert" className="whitespace-pre-line text-sm text-red-700">
          {(save.error ?? runDry.error)?.message}
        </p>
      )}
      {dryRun && (
        <section aria-label="Dry run" className="space-y-2">
          <h2 className="text-lg font-semibold text-slate-900">Dry run{dryRun.text !== text ? " (of an earlier draft)" : ""}</h2>
          {dryRun.result.ok ? <DryRunTable rows={dryRun.result.rows} /> : <p className="text-sm text-red-700">The draft has problems; fix them to dry-run it.</p>}
        </section>
      )}
      <section aria-label="Versions" className="space-y-2">
        <h2 className="text-lg font-semibold text-slate-900">Versions</h2>
        {versions.data?.length === 0 && <p className="text-sm text-slate-500">None saved yet.</p>}
        <ul className="space-y-1 text-sm">
          {versions.data?.map((version) => (
            <li key={version.version} data-testid="routing-version" className="flex flex-wrap items-center gap-3">
              <span className="font-medium">Version {version.version}</span>
              {version.version === inForce && <span className="rounded bg-emerald-100 px-2 py-0.5 text-xs text-emerald-800">in force</span>}
              <span className="text-slate-500">
                {version.createdBy}, {new Date(version.createdAt).toISOString().slice(0, 16).replace("T", " ")} UTC
              </span>
              {version.comment && <span className="text-slate-700">{version.comment}</span>}
              <LoadVersionButton version={version.version} onLoad={setDraft} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** Puts an earlier version's text in the editor (saving it makes it the newest version again). */
function LoadVersionButton({ version, onLoad }: { version: number; onLoad: (text: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [loading, setLoading] = useState(false);
  return (
    <Button
      variant="link"
      disabled={loading}
      onClick={async () => {
        setLoading(true);
        try {
          const found = await queryClient.fetchQuery(trpc.routing.current.queryOptions({ version }));
          if (found) onLoad(found.source);
        } finally {
          setLoading(false);
        }
      }}
    >
      Edit from version {version}
    </Button>
  );
}
