"use client";

import { type MachineOutline } from "./definition-ops";
import { Check, CommitText, LiveText, SMALL_BUTTON, Select } from "./fields";
import {
  addComponent,
  addVariable,
  convertDefault,
  DEFAULT_LANGUAGE,
  deleteComponent,
  deleteVariable,
  ON_FAILURE_CHOICES,
  readSettings,
  renameComponent,
  renameVariable,
  setComponentText,
  setDefaultMaxRetries,
  setDefaultOnFailure,
  setLanguage,
  setText,
  setVariableDefault,
  toggleComponentStep,
  WORKFLOW_LANGUAGES,
  type ContextValue,
} from "./settings-ops";
import type { ApplyEdit } from "./step-edits";
import type { WorkflowDraft } from "./workflow-draft";

const TYPES = [
  ["text", "Text"],
  ["number", "Number"],
  ["boolean", "Yes/no"],
] as const;
type ValueType = (typeof TYPES)[number][0];
const typeOf = (value: ContextValue): ValueType => (typeof value === "string" ? "text" : typeof value === "number" ? "number" : "boolean");
/** A number typed as text: "" is no number (Number("") would be 0). */
const numberFrom = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

/**
 * The workflow-wide fields of the document (docs/workflow-format.md): shown in the inspector
 * when nothing on the canvas is selected. Every change is an edit of the document, saved by Save.
 */
export function WorkflowSettings({ draft, machine, apply }: { draft: WorkflowDraft; machine: MachineOutline; apply: ApplyEdit }) {
  const settings = readSettings(draft);
  const languages: (string | readonly [string, string])[] = [...WORKFLOW_LANGUAGES];
  if (settings.language === "") languages.unshift(["", `Not set (${DEFAULT_LANGUAGE})`]);
  else if (!languages.includes(settings.language)) languages.unshift([settings.language, `${settings.language} (as written)`]);
  // Components are appended to prompts; code steps have none.
  const promptSteps = machine.steps.filter((step) => step.type !== "code").map((step) => step.name);
  return (
    <section aria-label="Workflow settings" className="space-y-3">
      <h2 className="text-sm font-semibold text-slate-900">Workflow settings</h2>
      <p className="text-xs text-slate-500">
        Name: <span className="font-medium text-slate-700">{settings.name}</span> (Rename changes it). Select a state or a transition to edit it instead.
      </p>
      <LiveText label="Description" multiline value={settings.texts.description} onChange={(value) => apply((current) => setText(current, "description", value), "settings:description")} />
      <LiveText label="Specification (default task)" multiline value={settings.texts.specification} onChange={(value) => apply((current) => setText(current, "specification", value), "settings:specification")} />
      <LiveText label="Constraints" multiline value={settings.texts.constraints} onChange={(value) => apply((current) => setText(current, "constraints", value), "settings:constraints")} />
      <Select label="Language" value={settings.language} options={languages} onChange={(value) => apply((current) => setLanguage(current, value))} />
      <div className="grid grid-cols-2 gap-2">
        <Select label="On failure (default)" value={settings.defaultOnFailure} options={[["", "Not set (retry)"], ...ON_FAILURE_CHOICES]} onChange={(value) => apply((current) => setDefaultOnFailure(current, value))} />
        <CommitText label="Retries (default)" value={settings.defaultMaxRetries === null ? "" : String(settings.defaultMaxRetries)} onCommit={(text) => apply((current) => setDefaultMaxRetries(current, text.trim() === "" ? null : numberFrom(text)))} />
      </div>

      <fieldset className="space-y-2 rounded border border-slate-200 p-2">
        <legend className="px-1 text-xs font-semibold text-slate-700">Context variables</legend>
        {settings.context.length === 0 && <p className="text-xs text-slate-500">None declared. Prompts and conditions may use declared variables by name.</p>}
        {settings.context.map(([name, value], index) => {
          const label = `Variable ${index + 1}`;
          const type = typeOf(value);
          return (
            <div key={name} data-testid="context-variable" className="space-y-1 border-b border-slate-100 pb-2 last:border-0">
              <div className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-2">
                <CommitText label={`${label} name`} value={name} onCommit={(to) => apply((current) => renameVariable(current, name, to))} />
                <Select label={`${label} type`} value={type} options={TYPES} onChange={(to) => apply((current) => setVariableDefault(current, name, convertDefault(value, to as ValueType)))} />
              </div>
              <div className="flex items-end gap-2">
                <div className="flex-1">
                  {type === "boolean" ? (
                    <Check label={`${label} default: yes`} checked={value === true} onChange={() => apply((current) => setVariableDefault(current, name, value !== true))} />
                  ) : type === "number" ? (
                    <CommitText label={`${label} default`} value={String(value)} onCommit={(text) => apply((current) => setVariableDefault(current, name, numberFrom(text)))} />
                  ) : (
                    <LiveText label={`${label} default`} value={String(value)} onChange={(text) => apply((current) => setVariableDefault(current, name, text), `settings:variable:${name}`)} />
                  )}
                </div>
                <button type="button" className={SMALL_BUTTON} aria-label={`Delete variable ${name}`} onClick={() => apply((current) => deleteVariable(current, name))}>
                  Delete
                </button>
              </div>
            </div>
          );
        })}
        <button type="button" className={SMALL_BUTTON} onClick={() => apply((current) => addVariable(current).draft)}>
          Add variable
        </button>
      </fieldset>

      <fieldset className="space-y-2 rounded border border-slate-200 p-2">
        <legend className="px-1 text-xs font-semibold text-slate-700">Components</legend>
        {settings.components.length === 0 && <p className="text-xs text-slate-500">None. A component is text appended to the prompts of the steps you pick.</p>}
        {settings.components.map((component, index) => {
          const label = `Component ${index + 1}`;
          return (
            <div key={index} data-testid="component" className="space-y-1 border-b border-slate-100 pb-2 last:border-0">
              <CommitText label={`${label} name`} value={component.name} onCommit={(to) => apply((current) => renameComponent(current, index, to))} />
              <LiveText label={`${label} text`} multiline value={component.text} onChange={(text) => apply((current) => setComponentText(current, index, text), `settings:component:${index}`)} />
              <div role="group" aria-label={`${label} steps`} className="flex flex-wrap gap-x-3 gap-y-1">
                {promptSteps.length === 0 && <span className="text-xs text-slate-500">No steps with a prompt yet.</span>}
                {promptSteps.map((step) => (
                  <Check key={step} label={`${label} into ${step}`} checked={component.inject_into.includes(step)} onChange={() => apply((current) => toggleComponentStep(current, index, step))} />
                ))}
              </div>
              <button type="button" className={SMALL_BUTTON} aria-label={`Delete component ${component.name}`} onClick={() => apply((current) => deleteComponent(current, index))}>
                Delete
              </button>
            </div>
          );
        })}
        <button type="button" className={SMALL_BUTTON} onClick={() => apply((current) => addComponent(current))}>
          Add component
        </button>
      </fieldset>
    </section>
  );
}
