import { isCollection, isMap, isSeq, parse, Document, type Node } from "yaml";

/**
 * The designer edits the workflow document as plain data: parsed with `yaml`, changed by the pure
 * operations in definition-ops.ts, and written back as YAML. Comments do not survive a round trip.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Transition {
  readonly from: string;
  readonly to: string;
  readonly condition?: string;
}

/** The parsed document: its root, and whether the workflow sits under `workflow:` (agent.yaml style). */
export interface WorkflowDraft {
  readonly root: JsonObject;
  readonly wrapped: boolean;
}

export class DraftError extends Error {
  override readonly name = "DraftError";
}

export type ParseResult = { readonly ok: true; readonly draft: WorkflowDraft } | { readonly ok: false; readonly error: string };

/** A new workflow's document: a name, its language when chosen, and an empty machine, which the designer fills in. */
export function blankDocument(name: string, language?: string): string {
  return serializeDraft({ wrapped: true, root: { workflow: { name, ...(language ? { language } : {}), state_machine: { states: [], initial_state: "", final_states: [], transitions: [] }, steps: [] } } });
}

export function parseDraft(text: string): ParseResult {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    return { ok: false, error: `The YAML does not parse: ${(error as Error).message.split("\n")[0]}` };
  }
  if (!isPlainObject(value)) return { ok: false, error: "The document is not a mapping." };
  const wrapped = "workflow" in value;
  if (wrapped && !isPlainObject(value.workflow)) return { ok: false, error: "`workflow:` is not a mapping." };
  return { ok: true, draft: { root: value as JsonObject, wrapped } };
}

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The workflow object inside the draft. */
export function workflowOf(draft: WorkflowDraft): JsonObject {
  return (draft.wrapped ? draft.root.workflow : draft.root) as JsonObject;
}

// Short lists and small mappings are written inline, as the examples are; the states list must
// stay inline because the live check finds the state a problem names through `states: [...]`.
const INLINE = [
  ["state_machine", "states"],
  ["state_machine", "final_states"],
] as const;
const INLINE_ITEMS = [["state_machine", "transitions"]] as const;
const INLINE_STEP_FIELDS = ["generator", "guards", "guard_artifact_deps"] as const;

export function serializeDraft(draft: WorkflowDraft): string {
  const document = new Document(draft.root);
  const prefix = draft.wrapped ? ["workflow"] : [];
  const inline = (node: unknown) => {
    if (isCollection(node)) node.flow = true;
  };
  for (const path of INLINE) inline(document.getIn([...prefix, ...path], true));
  for (const path of INLINE_ITEMS) {
    const list = document.getIn([...prefix, ...path], true);
    if (isSeq(list)) list.items.forEach(inline);
  }
  const steps = document.getIn([...prefix, "steps"], true);
  if (isSeq(steps))
    for (const step of steps.items as Node[]) {
      if (!isMap(step)) continue;
      for (const field of INLINE_STEP_FIELDS) inline(step.get(field, true));
    }
  return document.toString({ lineWidth: 0 });
}
