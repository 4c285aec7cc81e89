import type { GuardLanguage } from "@/server/guards/language";
import { DraftError, isPlainObject, workflowOf, type Json, type JsonObject, type WorkflowDraft } from "./workflow-draft";

/**
 * Pure edits of the workflow-wide fields of a draft (docs/workflow-format.md, "Workflow fields"):
 * texts, language, failure defaults, context variables and components. Each returns a new draft
 * or throws a DraftError the designer shows as is.
 */

/** The guards' languages (server/guards/language.ts, which the browser cannot load); settings-ops.test.ts checks they agree. */
export const WORKFLOW_LANGUAGES = ["javascript", "typescript", "python"] as const satisfies readonly GuardLanguage[];
export type WorkflowLanguage = (typeof WORKFLOW_LANGUAGES)[number];
/** What the validator assumes when a document names no language. */
export const DEFAULT_LANGUAGE: WorkflowLanguage = "javascript";
export const ON_FAILURE_CHOICES = ["retry", "skip", "fail", "escalate"] as const;
export const MAX_RETRIES_LIMIT = 20;

export type TextSetting = "description" | "specification" | "constraints";
export type ContextValue = boolean | number | string;

export interface Component {
  readonly name: string;
  readonly text: string;
  readonly inject_into: readonly string[];
}

/** The workflow-wide fields as the settings panel shows them, read tolerantly. */
export interface WorkflowSettings {
  readonly name: string;
  readonly texts: Readonly<Record<TextSetting, string>>;
  /** As written, so an alias (`py`) or a mistake is shown rather than hidden; "" when absent. */
  readonly language: string;
  readonly defaultOnFailure: string;
  readonly defaultMaxRetries: number | null;
  readonly context: readonly (readonly [string, ContextValue])[];
  readonly components: readonly Component[];
}

const asText = (value: Json | undefined) => (typeof value === "string" ? value : "");
const strings = (value: Json | undefined) => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : []);

export function readSettings(draft: WorkflowDraft): WorkflowSettings {
  const workflow = workflowOf(draft);
  const context = isPlainObject(workflow.context) ? Object.entries(workflow.context).filter((entry): entry is [string, ContextValue] => ["boolean", "number", "string"].includes(typeof entry[1])) : [];
  const components = Array.isArray(workflow.components)
    ? workflow.components.filter(isPlainObject).map((component) => ({ name: asText(component.name), text: asText(component.text), inject_into: strings(component.inject_into) }))
    : [];
  return {
    name: asText(workflow.name),
    texts: { description: asText(workflow.description), specification: asText(workflow.specification), constraints: asText(workflow.constraints) },
    language: asText(workflow.language),
    defaultOnFailure: asText(workflow.default_on_failure),
    defaultMaxRetries: typeof workflow.default_max_retries === "number" ? workflow.default_max_retries : null,
    context,
    components,
  };
}

function edit(draft: WorkflowDraft, change: (workflow: JsonObject) => void): WorkflowDraft {
  const next = structuredClone(draft) as WorkflowDraft;
  change(workflowOf(next));
  return next;
}

/** Empty text removes the field: the document then has no description (or default task, or constraints). */
export function setText(draft: WorkflowDraft, field: TextSetting, value: string): WorkflowDraft {
  return edit(draft, (workflow) => {
    if (value === "") delete workflow[field];
    else workflow[field] = value;
  });
}

export function setLanguage(draft: WorkflowDraft, language: string): WorkflowDraft {
  if (!(WORKFLOW_LANGUAGES as readonly string[]).includes(language)) throw new DraftError(`"${language}" is not a language workflows support (${WORKFLOW_LANGUAGES.join(", ")})`);
  return edit(draft, (workflow) => {
    workflow.language = language;
  });
}

/** "" removes the field, so the format's default (retry) applies. */
export function setDefaultOnFailure(draft: WorkflowDraft, value: string): WorkflowDraft {
  if (value !== "" && !(ON_FAILURE_CHOICES as readonly string[]).includes(value)) throw new DraftError(`"${value}" is not a failure policy (${ON_FAILURE_CHOICES.join(", ")})`);
  return edit(draft, (workflow) => {
    if (value === "") delete workflow.default_on_failure;
    else workflow.default_on_failure = value;
  });
}

/** null removes the field, so the format's default (3) applies. */
export function setDefaultMaxRetries(draft: WorkflowDraft, value: number | null): WorkflowDraft {
  if (value !== null && (!Number.isInteger(value) || value < 0 || value > MAX_RETRIES_LIMIT)) throw new DraftError(`default retries must be a whole number from 0 to ${MAX_RETRIES_LIMIT}`);
  return edit(draft, (workflow) => {
    if (value === null) delete workflow.default_max_retries;
    else workflow.default_max_retries = value;
  });
}

// ---- context variables ----

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED_VARIABLES = new Set(["specification", "constraints"]);

/** Why `name` cannot name a context variable, or null (the format's rule). */
export function variableNameProblem(name: string): string | null {
  if (!VARIABLE_NAME.test(name)) return `"${name}" is not a variable name: letters, digits and _, not starting with a digit`;
  if (RESERVED_VARIABLES.has(name)) return `"${name}" is a workflow field and cannot be declared as a variable`;
  return null;
}

function contextOf(workflow: JsonObject): JsonObject {
  if (!isPlainObject(workflow.context)) workflow.context = {};
  return workflow.context as JsonObject;
}

/** Adds a text variable named var_N (the first free N). */
export function addVariable(draft: WorkflowDraft): { draft: WorkflowDraft; name: string } {
  let added = "";
  const next = edit(draft, (workflow) => {
    const context = contextOf(workflow);
    for (let index = 1; added === "" || Object.hasOwn(context, added); index += 1) added = `var_${index}`;
    context[added] = "";
  });
  return { draft: next, name: added };
}

/** Renames a variable, keeping its place in the list. Prompts that use it are not rewritten: the check then names them. */
export function renameVariable(draft: WorkflowDraft, from: string, to: string): WorkflowDraft {
  return edit(draft, (workflow) => {
    const context = contextOf(workflow);
    if (!Object.hasOwn(context, from)) throw new DraftError(`context variable "${from}" does not exist`);
    if (from === to) return;
    const problem = variableNameProblem(to);
    if (problem) throw new DraftError(problem);
    if (Object.hasOwn(context, to)) throw new DraftError(`context variable "${to}" already exists`);
    workflow.context = Object.fromEntries(Object.entries(context).map(([name, value]) => [name === from ? to : name, value]));
  });
}

export function setVariableDefault(draft: WorkflowDraft, name: string, value: ContextValue): WorkflowDraft {
  if (typeof value === "number" && !Number.isFinite(value)) throw new DraftError(`the default of "${name}" must be a finite number`);
  return edit(draft, (workflow) => {
    const context = contextOf(workflow);
    if (!Object.hasOwn(context, name)) throw new DraftError(`context variable "${name}" does not exist`);
    context[name] = value;
  });
}

export function deleteVariable(draft: WorkflowDraft, name: string): WorkflowDraft {
  return edit(draft, (workflow) => {
    const context = contextOf(workflow);
    delete context[name];
    if (Object.keys(context).length === 0) delete workflow.context;
  });
}

/** A default converted to another type, keeping what can be kept. */
export function convertDefault(value: ContextValue, type: "text" | "number" | "boolean"): ContextValue {
  if (type === "text") return String(value);
  if (type === "boolean") return value === true || value === "true";
  const number = Number(value);
  return Number.isFinite(number) ? number : 0;
}

// ---- components ----

function componentsOf(workflow: JsonObject): Json[] {
  if (!Array.isArray(workflow.components)) workflow.components = [];
  return workflow.components as Json[];
}

function requireComponent(workflow: JsonObject, index: number): JsonObject {
  const component = componentsOf(workflow)[index];
  if (!isPlainObject(component)) throw new DraftError(`component ${index + 1} does not exist`);
  return component;
}

/** Adds component_N with no text, injected nowhere yet. */
export function addComponent(draft: WorkflowDraft): WorkflowDraft {
  return edit(draft, (workflow) => {
    const components = componentsOf(workflow);
    const taken = new Set(components.filter(isPlainObject).map((component) => component.name));
    let name = "";
    for (let index = 1; name === "" || taken.has(name); index += 1) name = `component_${index}`;
    components.push({ name, text: "", inject_into: [] });
  });
}

export function renameComponent(draft: WorkflowDraft, index: number, name: string): WorkflowDraft {
  return edit(draft, (workflow) => {
    const component = requireComponent(workflow, index);
    if (name.trim() === "") throw new DraftError("a component needs a name");
    if (componentsOf(workflow).some((other, at) => at !== index && isPlainObject(other) && other.name === name)) throw new DraftError(`component "${name}" already exists`);
    component.name = name;
  });
}

export function setComponentText(draft: WorkflowDraft, index: number, text: string): WorkflowDraft {
  return edit(draft, (workflow) => {
    requireComponent(workflow, index).text = text;
  });
}

/** Adds or removes a step from the steps the component's text is appended to. */
export function toggleComponentStep(draft: WorkflowDraft, index: number, step: string): WorkflowDraft {
  return edit(draft, (workflow) => {
    const component = requireComponent(workflow, index);
    const targets = strings(component.inject_into);
    component.inject_into = targets.includes(step) ? targets.filter((name) => name !== step) : [...targets, step];
  });
}

export function deleteComponent(draft: WorkflowDraft, index: number): WorkflowDraft {
  return edit(draft, (workflow) => {
    requireComponent(workflow, index);
    const components = componentsOf(workflow);
    components.splice(index, 1);
    if (components.length === 0) delete workflow.components;
  });
}
