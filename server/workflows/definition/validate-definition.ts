import { loadWorkflowDocument, type DocumentPath } from "../document";
import { checkGeneratorConfig } from "./check-generator-config";
import { checkGuardConfig } from "./check-guard-config";
import { checkGoal } from "./check-goal";
import { checkReferences } from "./check-references";
import { checkStates } from "./check-states";
import { checkTransitions } from "./check-transitions";
import { checkSteps } from "./check-steps";
import { envelopeSchema, workflowSchema } from "./definition-schema";
import { normalize } from "./normalize";
import { Problems } from "./problems";
import { COMPLETE_KNOWLEDGE, salvageWorkflow, type CheckableWorkflow, type Knowledge } from "./salvage";
import type { ValidationResult } from "./types";

export const MAX_STATES = 500;
export const MAX_STEPS = 1000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * YAML/JSON text → a normalised WorkflowDefinition, or every problem found, each with a field
 * path (and line/column when the source has one). Never throws. Order: loader limits and syntax,
 * size caps, shape, then cross-references. Loader and cap problems stop there. Shape problems do
 * not: the structural checks still run over the parts that parsed, each staying silent where a
 * missing part could make it wrong (salvage.ts), so one mistake is not reported again as a
 * cascade of guesses and does not hide an unrelated one.
 */
export function validateWorkflowDocument(text: string, fileName?: string): ValidationResult {
  try {
    return validate(text, fileName);
  } catch (error) {
    // A validator bug must still come out as a problem, not a stack trace.
    return { ok: false, warnings: [], problems: [{ path: "document", message: `could not be validated (internal error: ${error instanceof Error ? error.message : String(error)})` }] };
  }
}

function validate(text: string, fileName: string | undefined): ValidationResult {
  const loaded = loadWorkflowDocument(text, fileName === undefined ? {} : { fileName });
  if (!loaded.ok) return { ...loaded, warnings: [] };
  const root = loaded.value;
  if (!isObject(root)) return { ok: false, warnings: [], problems: [{ path: "document", message: "must be a mapping: a workflow, or an agent.yaml-style document with a workflow: key" }] };

  // agent.yaml style when `workflow:` is present; otherwise the root is the workflow itself.
  const enveloped = "workflow" in root;
  const base: DocumentPath = enveloped ? ["workflow"] : [];
  const problems = new Problems(base, loaded.locate);
  if (enveloped) {
    const envelope = envelopeSchema.safeParse(root);
    const outer = new Problems([], loaded.locate);
    if (!envelope.success) outer.addZod(envelope.error.issues, root);
    if (outer.items.length > 0) return { ok: false, problems: outer.items, warnings: [] };
  }
  const workflow = enveloped ? root.workflow : root;
  if (!isObject(workflow)) return { ok: false, warnings: [], problems: [{ path: enveloped ? "workflow" : "document", ...loaded.locate(base), message: "must be a mapping" }] };

  // Caps before any graph work: reachability is quadratic in the number of states.
  const machine = workflow.state_machine;
  const states = isObject(machine) && Array.isArray(machine.states) ? machine.states.length : 0;
  if (states > MAX_STATES) problems.add(["state_machine", "states"], `has ${states} states; the limit is ${MAX_STATES}`);
  const steps = Array.isArray(workflow.steps) ? workflow.steps.length : 0;
  if (steps > MAX_STEPS) problems.add(["steps"], `has ${steps} steps; the limit is ${MAX_STEPS}`);
  if (problems.items.length > 0) return { ok: false, problems: problems.items, warnings: [] };

  const parsed = workflowSchema.safeParse(workflow);
  if (!parsed.success) {
    problems.addZod(parsed.error.issues, workflow);
    const salvaged = salvageWorkflow(workflow);
    checkStructure(salvaged.workflow, salvaged.known, problems);
    return { ok: false, problems: problems.report(), warnings: [] };
  }
  checkStructure(parsed.data, COMPLETE_KNOWLEDGE, problems);
  if (problems.items.length > 0) return { ok: false, problems: problems.report(), warnings: [] };
  return { ok: true, definition: normalize(parsed.data), warnings: [] };
}

function checkStructure(workflow: CheckableWorkflow, known: Knowledge, problems: Problems): void {
  checkSteps(workflow, known, problems);
  checkGuardConfig(workflow, known, problems);
  checkGeneratorConfig(workflow, known, problems);
  const graph = checkStates(workflow, known, problems);
  checkTransitions(workflow, known, problems);
  checkReferences(workflow, known, graph, problems);
  checkGoal(workflow, known, problems);
}
