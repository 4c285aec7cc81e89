"use client";

import { ANY_STATE, setTransitionCondition, type MachineOutline } from "./definition-ops";
import { LiveText } from "./fields";
import type { ApplyEdit } from "./step-edits";

/** The selected transition: its condition (empty = always). */
export function TransitionInspector({ machine, index, apply }: { machine: MachineOutline; index: number; apply: ApplyEdit }) {
  const transition = machine.transitions.find((candidate) => candidate.index === index);
  if (!transition) return null;
  return (
    <section aria-label="Transition" className="space-y-3">
      <h2 className="text-sm font-semibold text-slate-900">
        Transition {transition.from === ANY_STATE ? "from any state" : transition.from} → {transition.to}
      </h2>
      <LiveText label="Condition" value={transition.condition ?? ""} onChange={(condition) => apply((draft) => setTransitionCondition(draft, index, condition), `transition:${index}`)} />
      <p className="text-xs text-slate-500">Guard ids, declared context variables, and/or/not, comparisons. Empty: always.</p>
    </section>
  );
}
