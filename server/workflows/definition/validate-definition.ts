import { loadWorkflowDocument, type DocumentPath } from "../document";
import { checkGeneratorConfig } from "./check-generator-config";
import { checkGuardConfig } from "./check-guard-config";
import { checkGoal } from "./check-goal";
import { checkReferences } from "./check-references";
import { checkStates } from "./check-states";
import { checkTransitions } from "./check-transitions";
import { checkSteps } from "./check-steps";
import { checkTools } from "./tools/check-tools";
import { MAX_TOOLS } from "./tools/tool-schema";
import { ENVELOPE_KEYS, envelopeSchema, workflowSchema } from "./definition-schema";
import { readSeedFormat, sourcePathOf } from "./seed-format";
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
export interface ValidateOptions {
  /**
   * The workflow's name when the document gives none (004's agent.yaml and step lists have no
   * name): the CLI passes the file's name, the API the name it was called with.
   */
  readonly fallbackName?: string;
}

/**
 * YAML/JSON text → a normalised WorkflowDefinition, or every problem found, each with a field
 * path (and line/column when the source has one), plus warnings where the document relies on a
 * default or an inference. Never throws. Order: loader limits and syntax, size caps, the seeds'
 * shapes (seed-format/), shape, then cross-references. Loader and cap problems stop there. Shape
 * problems do not: the structural checks still run over the parts that parsed, each staying
 * silent where a missing part could make it wrong (salvage.ts), so one mistake is not reported
 * again as a cascade of guesses and does not hide an unrelated one.
 */
export function validateWorkflowDocument(text: string, fileName?: string, options: ValidateOptions = {}): ValidationResult {
  try {
    return validate(text, fileName, options);
  } catch (error) {
    // A validator bug must still come out as a problem, not a stack trace.
    return { ok: false, warnings: [], problems: [{ path: "document", message: `could not be validated (internal error: ${error instanceof Error ? error.message : String(error)})` }] };
  }
}

function validate(text: string, fileName: string | undefined, options: ValidateOptions): ValidationResult {
  const loaded = loadWorkflowDocument(text, fileName === undefined ? {} : { fileName });
  if (!loaded.ok) return { ...loaded, warnings: [] };
  const root = loaded.value;
  if (!isObject(root)) return { ok: false, warnings: [], problems: [{ path: "document", message: "must be a mapping: a workflow, or an agent.yaml-style document with a workflow: key" }] };

  // agent.yaml style when `workflow:` is present; otherwise the root is the workflow itself.
  const enveloped = "workflow" in root;
  const base: DocumentPath = enveloped ? ["workflow"] : [];
  const outer = new Problems([], loaded.locate);
  if (enveloped) checkEnvelope(root, outer);
  if (outer.items.length > 0) return { ok: false, problems: outer.report(), warnings: outer.reportWarnings() };
  const written = enveloped ? root.workflow : root;
  if (!isObject(written)) return { ok: false, warnings: outer.reportWarnings(), problems: [{ path: enveloped ? "workflow" : "document", ...loaded.locate(base), message: "must be a mapping" }] };

  // Caps before any work over the steps: reachability is quadratic in the number of states.
  const capped = new Problems(base, loaded.locate);
  checkCaps(written, capped);
  if (capped.items.length > 0) return { ok: false, problems: capped.items, warnings: outer.reportWarnings() };

  const { workflow, findings } = readSeedFormat(written, { enveloped, fallbackName: fallbackNameOf(enveloped ? root : undefined, options) });
  const problems = new Problems(base, loaded.locate, sourcePathOf(findings.moves));
  outer.warnings.forEach((warning) => problems.warnings.push(warning));
  findings.problems.forEach(({ path, message }) => problems.add(path, message, true));
  findings.warnings.forEach(({ path, message }) => problems.warn(path, message, true));
  // A step list without a state machine implies one state per step.
  checkCaps(workflow, problems);
  if (problems.items.length > 0) return { ok: false, problems: problems.report(), warnings: problems.reportWarnings() };

  const parsed = workflowSchema.safeParse(workflow);
  if (!parsed.success) {
    problems.addZod(parsed.error.issues, workflow);
    const salvaged = salvageWorkflow(workflow);
    checkStructure(salvaged.workflow, salvaged.known, problems);
    return { ok: false, problems: problems.report(), warnings: problems.reportWarnings() };
  }
  checkStructure(parsed.data, COMPLETE_KNOWLEDGE, problems);
  if (problems.items.length > 0) return { ok: false, problems: problems.report(), warnings: problems.reportWarnings() };
  return { ok: true, definition: normalize(parsed.data), warnings: problems.reportWarnings() };
}

function checkCaps(workflow: Record<string, unknown>, problems: Problems): void {
  const machine = workflow.state_machine;
  const states = isObject(machine) && Array.isArray(machine.states) ? machine.states.length : 0;
  if (states > MAX_STATES) problems.add(["state_machine", "states"], `has ${states} states; the limit is ${MAX_STATES}`);
  const steps = Array.isArray(workflow.steps) ? workflow.steps.length : 0;
  if (steps > MAX_STEPS) problems.add(["steps"], `has ${steps} steps; the limit is ${MAX_STEPS}`);
  // Before each declaration's schemas are compiled.
  const tools = isObject(workflow.tools) ? Object.keys(workflow.tools).length : 0;
  if (tools > MAX_TOOLS) problems.add(["tools"], `declares ${tools} tools; the limit is ${MAX_TOOLS}`);
}

/**
 * Beside `workflow:`, `name`, `description` and `version` describe the file; any other key is an
 * agent.yaml setting (an `id`, an `enabled` flag, `components`…) that Dualstate keeps in the file
 * and ignores, with a warning naming it.
 */
function checkEnvelope(root: Record<string, unknown>, outer: Problems): void {
  const described = Object.fromEntries(Object.entries(root).filter(([key]) => (ENVELOPE_KEYS as readonly string[]).includes(key)));
  const envelope = envelopeSchema.safeParse(described);
  if (!envelope.success) outer.addZod(envelope.error.issues, described);
  for (const key of Object.keys(root)) {
    if (!(ENVELOPE_KEYS as readonly string[]).includes(key)) outer.warn([key], `agent.yaml key that Dualstate does not use: kept in the file, ignored`);
  }
}

function fallbackNameOf(envelope: Record<string, unknown> | undefined, options: ValidateOptions): { name: string; from: string } | undefined {
  if (typeof envelope?.name === "string") return { name: envelope.name, from: "the agent.yaml's name" };
  if (typeof envelope?.id === "string") return { name: envelope.id, from: "the agent.yaml's id" };
  if (options.fallbackName !== undefined) return { name: options.fallbackName, from: "given where the document was loaded" };
  return undefined;
}

function checkStructure(workflow: CheckableWorkflow, known: Knowledge, problems: Problems): void {
  checkSteps(workflow, known, problems);
  checkGuardConfig(workflow, known, problems);
  checkGeneratorConfig(workflow, known, problems);
  const graph = checkStates(workflow, known, problems);
  checkTransitions(workflow, known, problems);
  checkReferences(workflow, known, graph, problems);
  checkGoal(workflow, known, problems);
  checkTools(workflow, known, problems);
}
