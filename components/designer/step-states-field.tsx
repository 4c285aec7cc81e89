"use client";

import { ANY_STATE, inStateOf } from "./definition-ops";
import { Check, Select } from "./fields";
import type { Step } from "./definition-ops";

const MODES = [
  ["one", "One state"],
  ["several", "Several states"],
  ["any", "Any state (when no other step runs)"],
] as const;

/**
 * Where a step runs: one state, several, or any state ("*", a fallback for states without a step
 * of their own). `current` is the state the inspector was opened on, kept when the mode changes.
 */
export function StepStatesField({ step, states, current, onChange }: { step: Step; states: readonly string[]; current: string; onChange: (inState: string | readonly string[]) => void }) {
  const inState = inStateOf(step);
  const mode = inState === ANY_STATE ? "any" : typeof inState === "string" ? "one" : "several";
  const named = typeof inState === "string" ? (inState === ANY_STATE ? [] : [inState]) : inState;
  const home = states.includes(current) ? current : (named[0] ?? states[0] ?? "");
  const change = (next: string) => {
    if (next === "any") onChange(ANY_STATE);
    else if (next === "one") onChange(named[0] ?? home);
    else onChange(named.length > 0 ? named : [home]);
  };
  return (
    <fieldset className="space-y-1" data-testid="step-states">
      <Select label="Runs in" value={mode} options={MODES} onChange={change} />
      {mode === "one" && <Select label="State" value={named[0] ?? home} options={states} onChange={(state) => onChange(state)} />}
      {mode === "several" && (
        <div className="space-y-0.5">
          {states.map((state) => (
            <Check
              key={state}
              label={state}
              checked={named.includes(state)}
              onChange={() => onChange(named.includes(state) ? named.filter((other) => other !== state) : [...named, state])}
            />
          ))}
        </div>
      )}
      {mode === "any" && <p className="text-xs text-slate-600">Runs in every state that has no step of its own (004&apos;s step without in_state).</p>}
    </fieldset>
  );
}
