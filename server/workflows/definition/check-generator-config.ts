import type { Problems } from "./problems";
import { present, type CheckableWorkflow, type Knowledge } from "./salvage";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Generator options that make every run of a step fail: a replay generator whose own cassette
 * has no answers for the step (the cassette is keyed by step name, so a renamed step loses its
 * answers). A cassette given by name lives on the server and is looked up when the run starts.
 */
export function checkGeneratorConfig(raw: CheckableWorkflow, known: Knowledge, problems: Problems): void {
  for (const [step, i] of present(raw.steps)) {
    if (known.partialSteps.has(i)) continue;
    const generator = step.generator;
    if (generator?.kind !== "replay" || !isObject(generator.cassette)) continue;
    const answers = generator.cassette.steps;
    if (isObject(answers) && !Object.hasOwn(answers, step.name)) {
      const listed = Object.keys(answers);
      problems.add(["steps", i, "generator", "cassette", "steps"], `has no answers for step "${step.name}"${listed.length ? ` (it has ${listed.slice(0, 5).map((name) => `"${name}"`).join(", ")})` : ""}: every run of this step would fail`);
    }
  }
}
