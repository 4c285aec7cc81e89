"use client";

import { useState } from "react";
import { STEP_CATALOGUE } from "@/server/engine/domain/catalogue";
import { addStep, addTransition, ANY_STATE, fallbackStep, setInitial, stepIn, toggleFinal, type MachineOutline } from "./definition-ops";
import { Check, CommitText, SMALL_BUTTON, Select } from "./fields";
import { Palette } from "./palette";
import { StepInspector } from "./step-inspector";
import { stepEdits, type ApplyEdit } from "./step-edits";

/**
 * The selected state: its name, initial/final marks, outgoing transitions, and its step. Not
 * remounted when the state is renamed: leaving the name field renames it, and a click that left
 * the field (on a palette entry, say) must land on the same button, not on a fresh copy.
 */
export function StateInspector({ machine, name, apply, onRename }: { machine: MachineOutline; name: string; apply: ApplyEdit; onRename: (to: string) => void }) {
  const step = stepIn(machine, name);
  const fallback = fallbackStep(machine);
  const targets = machine.states;
  // Remembered per state, so selecting another state starts from the first target again.
  const [picked, setPicked] = useState<{ readonly state: string; readonly target: string } | null>(null);
  const target = picked?.state === name && targets.includes(picked.target) ? picked.target : (targets[0] ?? "");
  const otherGuardIds = machine.steps.filter((other) => other !== step && typeof other.guard_id === "string").map((other) => other.guard_id as string);
  return (
    <section aria-label={`State ${name}`} className="space-y-3">
      <h2 className="text-sm font-semibold text-slate-900">State</h2>
      <CommitText label="State name" value={name} onCommit={onRename} />
      <div className="flex gap-4">
        <Check label="Initial state" checked={machine.initial === name} onChange={() => apply((current) => setInitial(current, name))} />
        <Check label="Final state" checked={machine.finals.includes(name)} onChange={() => apply((current) => toggleFinal(current, name))} />
      </div>
      {/* The keyboard's way to draw a transition (the canvas needs a pointer). */}
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <Select label="Transition to" value={target} options={targets} onChange={(next) => setPicked({ state: name, target: next })} />
        </div>
        <button type="button" className={SMALL_BUTTON} onClick={() => apply((current) => addTransition(current, name, target))}>
          Add transition
        </button>
      </div>
      {!step && fallback && (
        <p data-testid="fallback-step-note" className="text-xs text-slate-600">
          Without a step of its own this state runs <span className="font-mono">{fallback.name}</span>, the step that runs in any state.
        </p>
      )}
      {step ? (
        <StepInspector step={step} state={name} states={machine.states} otherGuardIds={otherGuardIds} edits={stepEdits(step.name, apply)} />
      ) : (
        <section aria-label="Add a step" className="space-y-1">
          <h3 className="text-xs font-semibold text-slate-700">Add a step</h3>
          <Palette label="Step types" entries={STEP_CATALOGUE} onPick={(type) => apply((current) => addStep(current, name, type).draft)} />
        </section>
      )}
    </section>
  );
}

/** The "any state" node: the steps that run in every state without a step of its own ("*"). */
export function AnyStateInspector({ machine, apply }: { machine: MachineOutline; apply: ApplyEdit }) {
  const steps = machine.steps.filter((step) => !Array.isArray(step.in_state) && (step.in_state === undefined || step.in_state === ANY_STATE));
  return (
    <section aria-label="Any state" className="space-y-3">
      <h2 className="text-sm font-semibold text-slate-900">Any state</h2>
      <p className="text-xs text-slate-600">
        A state runs the first step that names it; a state without one runs the first of these. &quot;*&quot; transitions start here too.
      </p>
      {steps.length === 0 && <p className="text-xs text-slate-500">No step runs in any state.</p>}
      {steps.map((step) => (
        <StepInspector
          key={step.name}
          step={step}
          state={ANY_STATE}
          states={machine.states}
          otherGuardIds={machine.steps.filter((other) => other !== step && typeof other.guard_id === "string").map((other) => other.guard_id as string)}
          edits={stepEdits(step.name, apply)}
        />
      ))}
    </section>
  );
}
