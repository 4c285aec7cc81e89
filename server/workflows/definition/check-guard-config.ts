import { dependencyName } from "../../engine";
import type { GuardSpec } from "../../guards/guard-spec";
import { jsonSchemaProblem } from "../../guards/json-schema/compile-schema";
import { stepType } from "./normalize";
import type { Problems } from "./problems";
import { present, type CheckableWorkflow, type Knowledge } from "./salvage";

type Path = (string | number)[];

/**
 * Guard options that make every attempt fail whatever the model writes: reported here, before
 * any run, so they never reach a model as feedback. The option types are checked by
 * guard-spec.ts (and the language defaults to the workflow's); this is what needs the rest of the
 * step (its dependencies) or a compiler (a json_schema guard's schema).
 * At run time the guards throw StepConfigurationError for the same mistakes.
 */
export function checkGuardConfig(raw: CheckableWorkflow, known: Knowledge, problems: Problems): void {
  for (const [step, i] of present(raw.steps)) {
    // A field that did not parse (guards, dependencies, language) would make a verdict here a guess.
    if (known.partialSteps.has(i) || stepType(step) !== "action_pair") continue;
    const dependencies = new Set((step.guard_artifact_deps ?? []).map(dependencyName));
    const check = (guard: GuardSpec, at: Path): void => {
      const kind = guard.kind;
      if (kind === "tdd" && !dependencies.has("test")) {
        problems.add(at, "a tdd guard takes its tests from a dependency named test, and this step has none: add the guard id of the step that writes the tests (g_test) to guard_artifact_deps");
      }
      if (kind === "test" && !guard.test && !dependencies.has("test")) {
        problems.add(at, "a test guard needs tests: give it a `test` option, or a dependency named test (g_test in guard_artifact_deps)");
      }
      if (kind === "json_schema") {
        const problem = jsonSchemaProblem(guard.schema);
        if (problem) problems.add([...at, "schema"], problem);
      }
      if (kind === "all_of" || kind === "any_of") guard.guards.forEach((member, j) => check(member, [...at, "guards", j]));
    };
    (step.guards ?? []).forEach((guard, j) => check(guard, ["steps", i, "guards", j]));
  }
}
