import { addGuard, removeGuard, setGenerator, setGuard, setPromptPart, setStepStates, updateStep, type PromptPart, type StepPatch } from "./definition-ops";
import type { JsonObject, WorkflowDraft } from "./workflow-draft";

/** Applies an edit to the current draft; `group` folds repeated edits of one field into one undo step. */
export type ApplyEdit = (change: (draft: WorkflowDraft) => WorkflowDraft, group?: string) => boolean;

export type StepEdits = ReturnType<typeof stepEdits>;

/** The inspector's step gestures as document edits of one step. */
export function stepEdits(stepName: string, apply: ApplyEdit) {
  const field = (name: string) => `step:${stepName}:${name}`;
  return {
    update: (patch: StepPatch, group?: string) => apply((draft) => updateStep(draft, stepName, patch), group && field(group)),
    generator: (generator: JsonObject | null, group?: string) => apply((draft) => setGenerator(draft, stepName, generator), group && field(group)),
    prompt: (part: PromptPart, text: string) => apply((draft) => setPromptPart(draft, stepName, part, text), field(part)),
    addGuard: (kind: string, options: JsonObject) => apply((draft) => addGuard(draft, stepName, kind, options)),
    removeGuard: (index: number) => apply((draft) => removeGuard(draft, stepName, index)),
    /** Where the step runs: a state, a list of states, or "*". */
    states: (inState: string | readonly string[]) => apply((draft) => setStepStates(draft, stepName, inState)),
    /** `part` names the field edited ("kind", "options" or an option), one undo step per field. */
    setGuard: (index: number, kind: string, options: JsonObject, part: string) => apply((draft) => setGuard(draft, stepName, index, kind, options), field(`guard${index}:${part}`)),
  };
}
