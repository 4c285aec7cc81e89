"use client";

import "@xyflow/react/dist/style.css";
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Background, Controls, ReactFlow } from "@xyflow/react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { outline } from "./definition-ops";
import { DIFF_NODE_TYPES } from "./diff-node";
import { toDiffFlow } from "./to-diff-flow";
import { diffMachines, diffText, diffWorkflowFields, type FieldChange, type MachineDiff } from "./version-diff";
import { parseDraft, workflowOf } from "./workflow-draft";

const SELECT = "rounded-md border border-slate-300 px-2 py-1 text-sm";

/**
 * Two stored versions side by side: their machines drawn as one, coloured by what was added,
 * removed or changed, a list of those changes, and the line diff of their YAML.
 */
export function VersionCompare({ workflow, versions }: { workflow: string; versions: readonly number[] }) {
  const trpc = useTRPC();
  // Newest first: by default the latest version against the one before it.
  const [older, setOlder] = useState(versions[1] ?? versions[0] ?? 1);
  const [newer, setNewer] = useState(versions[0] ?? 1);
  const before = useQuery(trpc.workflow.export.queryOptions({ name: workflow, version: older }));
  const after = useQuery(trpc.workflow.export.queryOptions({ name: workflow, version: newer }));
  const comparison = useMemo(() => {
    if (before.data === undefined || after.data === undefined) return null;
    const [a, b] = [parseDraft(before.data), parseDraft(after.data)];
    // Stored versions were validated on save, so they always parse; this guards the type only.
    if (!a.ok || !b.ok) return null;
    return { diff: diffMachines(outline(a.draft), outline(b.draft)), fields: diffWorkflowFields(workflowOf(a.draft), workflowOf(b.draft)), lines: diffText(before.data, after.data) };
  }, [before.data, after.data]);

  return (
    <section aria-label="Compare versions" className="space-y-3 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold text-slate-900">Compare versions</h2>
        <label className="flex items-center gap-1">
          From
          <select aria-label="Older version" className={SELECT} value={older} onChange={(event) => setOlder(Number(event.target.value))}>
            {versions.map((version) => <option key={version} value={version}>v{version}</option>)}
          </select>
        </label>
        <label className="flex items-center gap-1">
          to
          <select aria-label="Newer version" className={SELECT} value={newer} onChange={(event) => setNewer(Number(event.target.value))}>
            {versions.map((version) => <option key={version} value={version}>v{version}</option>)}
          </select>
        </label>
      </div>
      {(before.error ?? after.error) && <p role="alert" className="text-red-700">{(before.error ?? after.error)?.message}</p>}
      {comparison === null ? (
        <p className="text-slate-500">Loading both versions…</p>
      ) : (
        <>
          <ul className="flex flex-wrap gap-3 text-xs" aria-label="Legend">
            <li className="text-emerald-700">■ added</li>
            <li className="text-red-700">■ removed</li>
            <li className="text-amber-700">■ changed</li>
          </ul>
          <DiffCanvas diff={comparison.diff} />
          <ChangeList diff={comparison.diff} fields={comparison.fields} />
          <pre className="max-h-96 overflow-auto rounded-md border border-slate-200 font-mono text-xs leading-5" data-testid="yaml-diff">
            {comparison.lines.map((line, index) => (
              <span key={index} data-kind={line.kind} className={`block whitespace-pre ${line.kind === "added" ? "bg-emerald-50 text-emerald-900" : line.kind === "removed" ? "bg-red-50 text-red-900" : "text-slate-500"}`}>
                {`${String(line.line).padStart(4)} ${line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " "} ${line.text}`}
              </span>
            ))}
          </pre>
        </>
      )}
    </section>
  );
}

function DiffCanvas({ diff }: { diff: MachineDiff }) {
  const flow = useMemo(() => toDiffFlow(diff), [diff]);
  return (
    <div className="h-[360px] rounded-md border border-slate-200" data-testid="version-diff-canvas">
      <ReactFlow nodes={flow.nodes} edges={flow.edges} nodeTypes={DIFF_NODE_TYPES} nodesDraggable={false} nodesConnectable={false} fitView fitViewOptions={{ maxZoom: 1 }} proOptions={{ hideAttribution: true }}>
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

function describeField(field: FieldChange): string {
  const values = field.change === "changed" && field.before !== undefined && field.after !== undefined ? `: ${field.before} → ${field.after}` : field.change === "added" && field.after !== undefined ? `: ${field.after}` : "";
  return `${field.field} ${field.change}${values}`;
}

function ChangeList({ diff, fields }: { diff: MachineDiff; fields: readonly FieldChange[] }) {
  const entries = [
    ...fields.map(describeField),
    ...diff.states.filter((state) => state.change !== "unchanged").map((state) => `state ${state.name} ${state.change}${state.reasons.length > 0 ? ` (${state.reasons.join(", ")})` : ""}`),
    ...diff.transitions
      .filter((transition) => transition.change !== "unchanged")
      .map((transition) => `transition ${transition.key} ${transition.change}${transition.change === "changed" ? `: ${transition.before} → ${transition.after}` : ""}`),
    ...diff.steps.filter((step) => step.change !== "unchanged").map((step) => `step ${step.name} ${step.change}${step.fields.length > 0 ? `: ${step.fields.join(", ")}` : ""}`),
  ];
  if (entries.length === 0) return <p className="text-slate-500">The two versions define the same workflow.</p>;
  return (
    <ul className="space-y-0.5 font-mono text-xs" data-testid="version-changes">
      {entries.map((entry) => <li key={entry}>{entry}</li>)}
    </ul>
  );
}
