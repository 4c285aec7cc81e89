"use client";

import { useState } from "react";
import { addStep, addTransition, setInitial, stepIn, toggleFinal, type MachineOutline } from "./definition-ops";
import { Check, CommitText, SMALL_BUTTON, Select } from "./fields";
import { StepInspector } from "./step-inspector";
import { stepEdits, type ApplyEdit } from "./step-edits";

/** The selected state: its name, initial/final marks, outgoing transitions, and its step. */
export function StateInspector({ machine, name, apply, onRename }: { machine: MachineOutline; name: string; apply: ApplyEdit; onRename: (to: string) => void }) {
  const step = stepIn(machine, name);
  const targets = machine.states;
  const [picked, setPicked] = useState(targets[0] ?? "");
  const target = targets.includes(picked) ? picked : (targets[0] ?? "");
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
          <Select label="Transition to" value={target} options={targets} onChange={setPicked} />
        </div>
        <button type="button" className={SMALL_BUTTON} onClick={() => apply((current) => addTransition(current, name, target))}>
          Add transition
        </button>
      </div>
      {step ? (
        <StepInspector step={step} otherGuardIds={otherGuardIds} edits={stepEdits(step.name, apply)} />
      ) : (
        <button type="button" className={SMALL_BUTTON} onClick={() => apply((current) => addStep(current, name).draft)}>
          Add step
        </button>
      )}
    </section>
  );
}
