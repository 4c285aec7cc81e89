/**
 * 001's step shapes read as the product's (docs/workflow-format.md, "Documents written in the
 * seeds' format"): an `action_pair: { generator, guard, prompt_template }` object is the step's
 * own fields, `prompt_template` is `prompt`, `generator: llm` is `{ kind: llm }`, `guard: syntax`
 * (or 001's class name, SyntaxGuard) is `guards: [{ kind: syntax }]`. Nothing is guessed: a
 * shorthand that clashes with the full field is a problem naming both.
 */
import type { DocumentPath } from "../../document";
import { isObject, type SeedFindings } from "./findings";

/** 001's guard classes (its guard library) by the kind the product gives them. */
const GUARD_CLASS_NAMES: Readonly<Record<string, string>> = { SyntaxGuard: "syntax", TestGuard: "test", TDDTestGuard: "tdd" };

function guardObject(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return { kind: GUARD_CLASS_NAMES[value] ?? value };
}

/** Moves `from` to `to` within `step` unless `to` is taken; records where it came from. */
function rename(step: Record<string, unknown>, from: string, to: string, at: DocumentPath, sourceAt: DocumentPath, findings: SeedFindings): void {
  if (!Object.hasOwn(step, from)) return;
  if (Object.hasOwn(step, to)) {
    findings.problems.push({ path: [...sourceAt], message: `give ${to} or ${from} (its 001 name), not both` });
    return;
  }
  step[to] = step[from];
  delete step[from];
  findings.moves.push([[...at, to], [...sourceAt]]);
}

/** A copy of one step with 001's shorthands written out; `at` is the step's path (["steps", i]). */
export function expandStepShorthands(raw: Record<string, unknown>, at: DocumentPath, findings: SeedFindings): Record<string, unknown> {
  const step: Record<string, unknown> = { ...raw };
  if (Object.hasOwn(step, "action_pair")) {
    const inner = step.action_pair;
    if (!isObject(inner)) {
      findings.problems.push({ path: [...at, "action_pair"], message: "must be a mapping of the action pair's generator, guard and prompt_template (001)" });
    } else {
      delete step.action_pair;
      if (step.type === undefined) step.type = "action_pair";
      for (const [key, value] of Object.entries(inner)) {
        if (Object.hasOwn(step, key)) {
          findings.problems.push({ path: [...at, "action_pair", key], message: `${key} is given both here and on the step: give it once` });
          continue;
        }
        step[key] = value;
        findings.moves.push([[...at, key], [...at, "action_pair", key]]);
      }
    }
  }
  const sourceOf = (key: string): DocumentPath => findings.moves.find(([seen]) => seen.length === at.length + 1 && seen.at(-1) === key && seen.slice(0, -1).every((p, i) => p === at[i]))?.[1] ?? [...at, key];
  rename(step, "prompt_template", "prompt", at, sourceOf("prompt_template"), findings);
  if (typeof step.generator === "string") step.generator = { kind: step.generator };
  if (Object.hasOwn(step, "guard")) {
    const source = sourceOf("guard");
    if (Object.hasOwn(step, "guards")) findings.problems.push({ path: [...source], message: "give guards (a list) or guard (one), not both" });
    else {
      step.guards = [step.guard];
      delete step.guard;
      findings.moves.push([[...at, "guards", 0], [...source]], [[...at, "guards"], [...source]]);
    }
  }
  if (Array.isArray(step.guards)) step.guards = step.guards.map(guardObject);
  return step;
}
