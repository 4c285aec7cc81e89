import type { Db } from "@/server/persistence/db";
import { validateWorkflowDocument, type ValidationResult } from "@/server/workflows/definition";
import { formatProblem, formatWarning, type DocumentProblem } from "@/server/workflows/document";
import { conflict, invalidInput, ServiceError } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { saveWorkflowDefinition } from "./save-definition";
import type { Actor } from "@/server/api/trpc";
import { recordAuditEvent } from "../audit/record-audit-event";

/** A workflow document as text (YAML or JSON) or as the same schema in an object; exactly one. */
export interface WorkflowDocumentInput {
  /** Optional; when given it must be the name the document declares (or the name it takes). */
  name?: string;
  /** Taken by a document that declares no name (004's agent.yaml); `name` is used when this is absent. */
  fallbackName?: string;
  document?: string;
  definition?: Record<string, unknown>;
}

export interface SavedWorkflow {
  id: string;
  name: string;
  version: number;
  /** False when the latest version already held this definition, so nothing was stored. */
  created: boolean;
  /** Where the document relies on a default or an inference; saved all the same. */
  warnings: DocumentProblem[];
}

/** Heads the warnings in a refusal's message, so they are never read as reasons for it. */
export const WARNINGS_HEADING = "Warnings (not errors; they alone would not stop the save):";

/**
 * Why an invalid document was not saved: one line per error, and only then, under their own
 * heading, the warnings it would also have had.
 */
export function invalidDocumentMessage(problems: readonly DocumentProblem[], warnings: readonly DocumentProblem[]): string {
  const errors = problems.map(formatProblem).join("\n");
  return warnings.length === 0 ? errors : `${errors}\n\n${WARNINGS_HEADING}\n${warnings.map(formatWarning).join("\n")}`;
}

function validate(input: WorkflowDocumentInput): ValidationResult {
  if ((input.document === undefined) === (input.definition === undefined)) {
    throw invalidInput("document", "give the workflow as document (YAML or JSON text) or as definition (an object), exactly one of them");
  }
  // A document that gives no name (004's agent.yaml) takes the one it is saved under.
  if (input.document !== undefined) return validateWorkflowDocument(input.document, undefined, { fallbackName: input.fallbackName?.trim() || input.name?.trim() || undefined });
  const result = validateWorkflowDocument(JSON.stringify(input.definition, null, 2), "definition.json");
  // Lines and columns would point into our own serialisation of the object, not at anything
  // the caller wrote: the path alone names the place.
  const withoutPlaces = (items: readonly DocumentProblem[]) => items.map(({ path, message }) => ({ path, message }));
  return result.ok ? { ...result, warnings: withoutPlaces(result.warnings) } : { ok: false, problems: withoutPlaces(result.problems), warnings: withoutPlaces(result.warnings) };
}

/**
 * Validates a workflow document exactly like `dualstate validate` and saves it under the name
 * it declares: a new workflow with version 1, a new immutable version when the definition
 * changed, nothing new when it is identical to the latest version.
 * Its warnings come back with the answer (they never stop a save).
 * @throws ServiceError INVALID_INPUT listing every problem as `path: message` lines (with line
 *   and column for text), then any warnings under their own heading (invalidDocumentMessage), or
 *   when `name` disagrees with the document; nothing is stored then.
 * @throws ServiceError CONFLICT when another save of a new workflow of the same name won the race.
 */
export async function saveWorkflowDocument(db: Db, input: WorkflowDocumentInput, by?: Actor): Promise<SavedWorkflow> {
  const result = validate(input);
  if (!result.ok) throw new ServiceError("INVALID_INPUT", invalidDocumentMessage(result.problems, result.warnings));
  const { definition, warnings } = result;
  if (input.name !== undefined && input.name.trim() !== definition.name) {
    throw invalidInput("name", `"${input.name.trim()}" differs from the document's name "${definition.name}"; the document names the workflow, so leave name out or make them agree`);
  }
  try {
    const saved = await saveWorkflowDefinition(db, definition);
    if (saved.created && by) await recordAuditEvent(db, { actor: by, action: "workflow.saved", target: `workflow:${definition.name}`, detail: { version: saved.version } });
    return { id: saved.workflowId, name: definition.name, version: saved.version, created: saved.created, warnings };
  } catch (error) {
    // Two first saves of one name: the unique index lets one in; the other may simply save again.
    if (isUniqueConstraintViolation(error)) throw conflict(`name: the workflow "${definition.name}" was created by another save at the same time; save again to add a version`);
    throw error;
  }
}
