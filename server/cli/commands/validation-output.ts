import type { ValidationResult } from "../../workflows/definition";
import { formatFindings } from "../../workflows/document";
import { EXIT } from "../io";
import { terminalJson } from "../terminal-text";

/** What `dualstate validate` prints and the status it exits with; warnings never change the status. */
export interface ValidationOutput {
  readonly out: string;
  readonly err: string;
  readonly code: number;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * A validation result as the command prints it. Text: the summary on stdout when valid; every
 * error line and then every `warning:` line on stderr. JSON (--json): one object on stdout with
 * `problems` and `warnings` kept apart. Exit 0 when valid (with or without warnings), 1 when not.
 */
export function validationOutput(result: ValidationResult, json: boolean): ValidationOutput {
  const problems = result.ok ? [] : result.problems;
  const code = result.ok ? EXIT.ok : EXIT.failed;
  const summary = result.ok ? summarise(result.definition) : undefined;
  if (json) return { out: terminalJson({ ok: result.ok, ...(summary && { workflow: summary }), problems, warnings: result.warnings }, 2), err: "", code };
  const err = formatFindings(problems, result.warnings).join("\n");
  if (!summary) return { out: "", err, code };
  const warned = result.warnings.length > 0 ? `, ${count(result.warnings.length, "warning")}` : "";
  return { out: `${summary.name}: valid (${count(summary.states, "state")}, ${count(summary.steps, "step")}, ${count(summary.guards, "guard")})${warned}`, err, code };
}

function summarise(definition: Extract<ValidationResult, { ok: true }>["definition"]) {
  const guards = definition.steps.reduce((sum, step) => sum + (step.guards?.length ?? 0), 0);
  return { name: definition.name, states: definition.state_machine.states.length, steps: definition.steps.length, guards };
}
