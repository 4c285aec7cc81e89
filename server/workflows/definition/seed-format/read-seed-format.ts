/**
 * Reads a workflow written in the seeds' format into the product's canonical shape before it is
 * checked (docs/workflow-format.md, "Documents written in the seeds' format"). Every document
 * gets 001's shorthands; a *seed document* (an agent.yaml, with the workflow under `workflow:`,
 * or a workflow without `state_machine`, 001's step list) also gets the inferences its seed
 * relies on: the state machine, final states, in_state, variables, a prompt, Python code.
 * Each inference is a warning; nothing here decides that a document is valid.
 */
import { expandStepShorthands } from "./step-shorthands";
import { inferMachine } from "./infer-machine";
import { inferVariables } from "./infer-variables";
import { isObject, newFindings, type SeedFindings } from "./findings";

export interface SeedReading {
  /** The workflow in canonical shape (a copy; the loaded value is not changed). */
  readonly workflow: Record<string, unknown>;
  readonly findings: SeedFindings;
}

export interface SeedReadOptions {
  /** The workflow is under `workflow:` in an agent.yaml. */
  readonly enveloped: boolean;
  /** A name for a workflow that gives none, and where it comes from ("the agent.yaml's id"). */
  readonly fallbackName?: { readonly name: string; readonly from: string };
}

export function readSeedFormat(original: Record<string, unknown>, options: SeedReadOptions): SeedReading {
  const findings = newFindings();
  const workflow: Record<string, unknown> = { ...original };
  const seed = options.enveloped || !Object.hasOwn(workflow, "state_machine");
  if (isObject(workflow.state_machine)) workflow.state_machine = { ...workflow.state_machine };

  if (workflow.name === undefined && options.fallbackName) {
    workflow.name = options.fallbackName.name;
    findings.warnings.push({ path: [], message: `no name: the workflow is called "${options.fallbackName.name}" (${options.fallbackName.from})` });
  }
  if (Object.hasOwn(workflow, "rmax")) {
    if (Object.hasOwn(workflow, "default_max_retries")) findings.problems.push({ path: ["rmax"], message: "give default_max_retries or rmax (its 001 name), not both" });
    else {
      workflow.default_max_retries = workflow.rmax;
      findings.moves.push([["default_max_retries"], ["rmax"]]);
    }
    delete workflow.rmax;
  }
  if (!Array.isArray(workflow.steps)) {
    // Validation warns about a machine without steps; 004's state_machine block stands alone.
    if (seed && workflow.steps === undefined) workflow.steps = [];
    else return { workflow, findings };
  }
  const steps = (workflow.steps as unknown[]).map((step, i) => (isObject(step) ? expandStepShorthands(step, ["steps", i], findings) : step));
  workflow.steps = steps;
  if (!seed) return { workflow, findings };

  // A step that is not a mapping is left to the shape check; an empty stand-in keeps the indexes.
  const objects = steps.map((step) => (isObject(step) ? step : {}));
  inferMachine(workflow, objects, findings);
  objects.forEach((step, index) => {
    if (!isObject(steps[index])) return;
    const type = step.type ?? (Array.isArray(step.guards) && step.guards.length > 0 ? "action_pair" : "llm");
    if (type !== "code" && step.prompt === undefined) {
      step.prompt = "{specification}";
      findings.warnings.push({ path: ["steps", index], message: `no prompt: step "${String(step.name)}" gives the model the run's specification ({specification})` });
    }
  });
  // Both seeds write Python (001's guards, 004's code steps); a document that names its language keeps it.
  const runsCode = objects.some((step) => step.type === "code" || step.type === "action_pair" || (step.type === undefined && Array.isArray(step.guards)));
  if (runsCode && workflow.language === undefined) {
    workflow.language = "python";
    findings.warnings.push({ path: [], message: "no language: code steps and guards use Python, the seeds' language (language: javascript to change it)" });
  }
  inferVariables(workflow, objects, findings);
  return { workflow, findings };
}
