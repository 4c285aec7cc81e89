import { GuardSpecError, type GuardSpec } from "../guards/guard-spec";
import type { StepDefinition, WorkflowDefinition } from "../workflows/definition";

/**
 * A dataset case's own checks, added to the workflow's guards for that case's runs: test code run
 * like a `test` guard, and a rubric judged like an `llm_judge` guard. They travel in the run's
 * ledger (its first entry, under CASE_LEDGER_KEY), so a run needs nothing beyond its ledger to be
 * executed and resumed with them, as a fork carries its edit.
 */
export const CASE_LEDGER_KEY = "experiment.case";

/** Bounds on what a case may add (a dataset is hostile input like any document). */
export const MAX_CHECK_CODE_CHARS = 100_000;
export const MAX_RUBRIC_CHARS = 10_000;

export interface CaseChecks {
  readonly tests?: { readonly language: "python" | "javascript"; readonly code: string };
  readonly rubric?: string;
}

/** The checks of a stored case (DatasetCase.checks) or of a ledger payload; problems name the field. */
export function readCaseChecks(value: unknown): { ok: true; checks: CaseChecks } | { ok: false; problem: string } {
  if (value === null || value === undefined) return { ok: true, checks: {} };
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, problem: "checks: must be an object with tests and/or rubric" };
  const { tests, rubric } = value as { tests?: unknown; rubric?: unknown };
  const checks: { tests?: CaseChecks["tests"]; rubric?: string } = {};
  if (tests !== undefined && tests !== null) {
    if (typeof tests !== "object" || Array.isArray(tests)) return { ok: false, problem: "checks.tests: must be an object with language and code" };
    const { language, code } = tests as { language?: unknown; code?: unknown };
    if (language !== "python" && language !== "javascript") return { ok: false, problem: 'checks.tests.language: must be "python" or "javascript"' };
    if (typeof code !== "string" || code.trim() === "") return { ok: false, problem: "checks.tests.code: must be non-empty text" };
    if (code.length > MAX_CHECK_CODE_CHARS) return { ok: false, problem: `checks.tests.code: longer than ${MAX_CHECK_CODE_CHARS} characters` };
    checks.tests = { language, code };
  }
  if (rubric !== undefined && rubric !== null) {
    if (typeof rubric !== "string" || rubric.trim() === "") return { ok: false, problem: "checks.rubric: must be non-empty text" };
    if (rubric.length > MAX_RUBRIC_CHARS) return { ok: false, problem: `checks.rubric: longer than ${MAX_RUBRIC_CHARS} characters` };
    checks.rubric = rubric;
  }
  return { ok: true, checks };
}

export function hasChecks(checks: CaseChecks): boolean {
  return checks.tests !== undefined || checks.rubric !== undefined;
}

/** The guards a case's checks become. */
export function caseGuards(checks: CaseChecks): GuardSpec[] {
  const guards: GuardSpec[] = [];
  if (checks.tests) guards.push({ kind: "test", test: checks.tests.code, language: checks.tests.language });
  if (checks.rubric) guards.push({ kind: "llm_judge", rubric: checks.rubric });
  return guards;
}

/**
 * The steps a case's checks apply to: those whose guard id is in the workflow's goal (what the run
 * delivers), or, without a goal, the last action pair (the usual deliverable).
 */
export function checkedSteps(definition: WorkflowDefinition): string[] {
  const pairs = definition.steps.filter((step) => step.type === "action_pair");
  if (definition.goal && definition.goal.length > 0) {
    const goal = new Set(definition.goal);
    const inGoal = pairs.filter((step) => goal.has(step.guard_id ?? step.name));
    if (inGoal.length > 0) return inGoal.map((step) => step.name);
  }
  const last = pairs.at(-1);
  return last ? [last.name] : [];
}

/** The definition with the case's guards appended to the checked steps' own (unchanged when it has none). */
export function withCaseChecks(definition: WorkflowDefinition, checks: CaseChecks): WorkflowDefinition {
  const extra = caseGuards(checks);
  if (extra.length === 0) return definition;
  const targets = new Set(checkedSteps(definition));
  return {
    ...definition,
    steps: definition.steps.map((step): StepDefinition => (targets.has(step.name) ? { ...step, guards: [...(step.guards ?? []), ...extra] } : step)),
  };
}

/** The definition a run executes: with its case's checks when its ledger carries them (an experiment's run). */
export function definitionForRun(definition: WorkflowDefinition, casePayload: unknown): WorkflowDefinition {
  if (casePayload === undefined) return definition;
  const read = readCaseChecks((casePayload as { checks?: unknown }).checks);
  // Checked when the experiment was created; a malformed entry is a corrupted ledger, which no retry mends.
  if (!read.ok) throw new GuardSpecError(`the ${CASE_LEDGER_KEY} ledger entry is malformed: ${read.problem}`);
  return withCaseChecks(definition, read.checks);
}
