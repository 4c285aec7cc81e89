"use client";

import { useMemo, useState } from "react";
import { addState, addTransition, ANY_STATE, deleteState, deleteTransition, outline, renameState } from "./definition-ops";
import { DesignerCanvas } from "./designer-canvas";
import { SMALL_BUTTON } from "./fields";
import { AnyStateInspector, StateInspector } from "./state-inspector";
import type { ApplyEdit } from "./step-edits";
import type { ProblemMarks, Selection } from "./to-designer-flow";
import { TransitionInspector } from "./transition-inspector";
import { useSavedPositions } from "./use-saved-positions";
import { WorkflowSettings } from "./workflow-settings";
import { parseDraft, serializeDraft } from "./workflow-draft";

/**
 * The visual designer: a canvas and an inspector over the same document as the YAML tab. Every
 * gesture is a pure edit of the parsed draft, written back as YAML through `onEdit`.
 */
export function WorkflowDesigner({ workflow, document, problems, onEdit }: { workflow: string; document: string; problems: ProblemMarks; onEdit: (document: string, group: string | null) => void }) {
  const parsed = useMemo(() => parseDraft(document), [document]);
  const machine = useMemo(() => (parsed.ok ? outline(parsed.draft) : null), [parsed]);
  const [selection, setSelection] = useState<Selection>(null);
  const [error, setError] = useState<string | null>(null);
  const saved = useSavedPositions(workflow);
  if (!parsed.ok || machine === null) return <p className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">{parsed.ok ? "" : parsed.error} Fix it in the YAML tab to use the designer.</p>;
  const draft = parsed.draft;

  const apply: ApplyEdit = (change, group) => {
    try {
      const next = change(draft);
      setError(null);
      onEdit(serializeDraft(next), group ?? null);
      return true;
    } catch (caught) {
      // Detected by name, not instanceof (see the style guide on errors across bundles).
      if (caught instanceof Error && caught.name === "DraftError") {
        setError(caught.message);
        return false;
      }
      throw caught;
    }
  };

  function deleteSelected(states: readonly string[], transitions: readonly number[]) {
    const removed = apply((current) => {
      // Highest index first, so the indices still to delete stay valid.
      let next = [...transitions].sort((a, b) => b - a).reduce(deleteTransition, current);
      for (const state of states) if (state !== ANY_STATE) next = deleteState(next, state);
      return next;
    });
    if (removed) setSelection(null);
  }

  const selectedState = selection?.kind === "state" && machine.states.includes(selection.name) ? selection.name : null;
  const anyStateSelected = selection?.kind === "state" && selection.name === ANY_STATE;
  const selectedTransition = selection?.kind === "transition" && machine.transitions.some((transition) => transition.index === selection.index) ? selection.index : null;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={SMALL_BUTTON}
          onClick={() => {
            const added = addState(draft);
            if (apply(() => added.draft)) setSelection({ kind: "state", name: added.name });
          }}
        >
          Add state
        </button>
        <button
          type="button"
          className={SMALL_BUTTON}
          disabled={selectedState === null && selectedTransition === null}
          onClick={() => deleteSelected(selectedState ? [selectedState] : [], selectedTransition === null ? [] : [selectedTransition])}
        >
          Delete
        </button>
        <button type="button" className={SMALL_BUTTON} onClick={saved.reset}>
          Re-layout
        </button>
        <p className="text-xs text-slate-500">Drag from a state&apos;s lower handle to another state to add a transition. Designer edits rewrite the YAML, so its comments are not kept.</p>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <DesignerCanvas
          machine={machine}
          positions={saved.positions}
          problems={problems}
          selection={selection}
          onSelect={setSelection}
          onMove={saved.place}
          onConnect={(from, to) => apply((current) => addTransition(current, from, to))}
          onDelete={deleteSelected}
        />
        <aside aria-label="Inspector" className="max-h-[520px] overflow-y-auto rounded-lg border border-slate-200 bg-white p-3">
          {selectedState !== null ? (
            <StateInspector
              machine={machine}
              name={selectedState}
              apply={apply}
              onRename={(to) => {
                if (!apply((current) => renameState(current, selectedState, to))) return;
                saved.rename(selectedState, to);
                setSelection({ kind: "state", name: to });
              }}
            />
          ) : anyStateSelected ? (
            <AnyStateInspector machine={machine} apply={apply} />
          ) : selectedTransition !== null ? (
            <TransitionInspector machine={machine} index={selectedTransition} apply={apply} />
          ) : (
            <WorkflowSettings draft={draft} machine={machine} apply={apply} />
          )}
        </aside>
      </div>
    </div>
  );
}
