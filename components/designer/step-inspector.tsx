"use client";

import { ANY_STATE, isActionPair, PROMPT_PARTS, type Step } from "./definition-ops";
import { StepStatesField } from "./step-states-field";
import { isPlainObject, type JsonObject } from "./workflow-draft";
import { CommitText, Check, LiveText, Select } from "./fields";
import { GuardList } from "./guard-list";
import { GENERATOR_CATALOGUE, GENERATOR_KINDS, ON_FAILURE, ON_FAILURE_CATALOGUE, STEP_CATALOGUE, STEP_TYPES } from "@/server/engine/domain/catalogue";
import { StepTestButton } from "./step-test/step-test-button";
import type { StepEdits } from "./step-edits";

const STEP_CHOICES = STEP_TYPES.map((type) => [type, `${STEP_CATALOGUE[type].title} (${type})`] as const);
const GENERATOR_CHOICES = [["", "(configured default)"], ...GENERATOR_KINDS.map((kind) => [kind, `${GENERATOR_CATALOGUE[kind].title} (${kind})`] as const)] as const;
const ON_FAILURE_CHOICES = [["", "(workflow default)"], ...ON_FAILURE.map((policy) => [policy, `${ON_FAILURE_CATALOGUE[policy].title} (${policy})`] as const)] as const;
/** Only an action pair has a checked artifact a person can review, so only it offers escalate (unless a document already says it). */
const onFailureChoices = (actionPair: boolean, current: unknown) => ON_FAILURE_CHOICES.filter(([policy]) => actionPair || policy !== "escalate" || current === "escalate");
const explain = <Name extends string>(entries: Readonly<Record<Name, { summary: string }>>, name: unknown) => (typeof name === "string" && Object.hasOwn(entries, name) ? entries[name as Name].summary : null);

const PROMPT_LABELS = { role: "Prompt role", constraints: "Prompt constraints", task: "Prompt task", feedback_wrapper: "Feedback wrapper" } as const;

/** The fields of a state's step, as the workflow format defines them for its type. */
export function StepInspector({ step, state, states, otherGuardIds, edits }: { step: Step; state: string; states: readonly string[]; otherGuardIds: readonly string[]; edits: StepEdits }) {
  const actionPair = isActionPair(step);
  const type = typeof step.type === "string" ? step.type : actionPair ? "action_pair" : "llm";
  const generator: JsonObject = isPlainObject(step.generator) ? step.generator : {};
  const prompt: JsonObject = typeof step.prompt === "string" ? { task: step.prompt } : isPlainObject(step.prompt) ? step.prompt : {};
  const deps = Array.isArray(step.guard_artifact_deps) ? step.guard_artifact_deps.filter((dep): dep is string => typeof dep === "string") : [];
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  return (
    <fieldset className="space-y-2 rounded border border-slate-200 p-2">
      <legend className="px-1 text-xs font-semibold text-slate-700">Step</legend>
      <CommitText label="Step name" value={step.name} onCommit={(name) => edits.update({ name })} />
      <Select label="Step type" value={type} options={STEP_CHOICES} onChange={(next) => edits.update({ type: next })} />
      <p className="text-xs text-slate-600">{explain(STEP_CATALOGUE, type)}</p>
      <StepStatesField step={step} states={states} current={state} onChange={edits.states} />
      {actionPair && <CommitText label="Guard id" value={text(step.guard_id)} onCommit={(guard_id) => edits.update({ guard_id })} />}
      {type !== "code" && (
        <>
          <Select
            label="Generator"
            value={text(generator.kind)}
            options={GENERATOR_CHOICES}
            onChange={(kind) => edits.generator(kind === "" ? null : { ...generator, kind })}
          />
          {explain(GENERATOR_CATALOGUE, generator.kind) && <p className="text-xs text-slate-600">{explain(GENERATOR_CATALOGUE, generator.kind)}</p>}
          {generator.kind !== undefined && generator.kind !== "replay" && <LiveText label="Model" value={text(generator.model)} onChange={(model) => edits.generator({ ...generator, model }, "model")} />}
          {generator.kind !== undefined && generator.kind !== "replay" && (
            // Empty: the default endpoint (Admin → Models).
            <LiveText label="Endpoint" value={text(generator.endpoint)} onChange={(endpoint) => edits.generator({ ...generator, endpoint }, "endpoint")} />
          )}
          {PROMPT_PARTS.map((part) => (
            <LiveText key={part} label={PROMPT_LABELS[part]} value={text(prompt[part])} multiline onChange={(value) => edits.prompt(part, value)} />
          ))}
        </>
      )}
      {type === "code" && <LiveText label="Code" value={text(step.code)} multiline onChange={(code) => edits.update({ code }, "code")} />}
      <div className="grid grid-cols-2 gap-2">
        <LiveText label="Max retries" value={typeof step.max_retries === "number" ? String(step.max_retries) : ""} onChange={(value) => edits.update({ max_retries: value === "" ? Number.NaN : Number(value) }, "max_retries")} />
        <Select label="On failure" value={text(step.on_failure)} options={onFailureChoices(actionPair, step.on_failure)} onChange={(on_failure) => edits.update({ on_failure })} />
      </div>
      {explain(ON_FAILURE_CATALOGUE, step.on_failure) && <p className="text-xs text-slate-600">{explain(ON_FAILURE_CATALOGUE, step.on_failure)}</p>}
      {actionPair && (
        <>
          <GuardList guards={Array.isArray(step.guards) ? step.guards : []} onAdd={edits.addGuard} onRemove={edits.removeGuard} onSet={edits.setGuard} />
          {otherGuardIds.length > 0 && (
            <fieldset className="space-y-1">
              <legend className="text-xs font-medium text-slate-600">Dependencies (artifacts this step sees)</legend>
              {otherGuardIds.map((id) => (
                <Check key={id} label={id} checked={deps.includes(id)} onChange={() => edits.update({ guard_artifact_deps: deps.includes(id) ? deps.filter((dep) => dep !== id) : [...deps, id] })} />
              ))}
            </fieldset>
          )}
        </>
      )}
      {state !== ANY_STATE && <StepTestButton step={step.name} state={state} actionPair={actionPair} />}
      <p className="text-xs text-slate-500">run_if, language, transition_map and a state&apos;s further steps are edited in the YAML tab.</p>
    </fieldset>
  );
}
