import { stepType } from "./normalize";
import type { Problems } from "./problems";
import { present, type CheckableWorkflow, type Knowledge } from "./salvage";

/**
 * `goal` lists guard ids (000 Sgoal): each must be the guard of an action_pair step (its
 * guard_id, or its name when it has none), once. Beside shape errors, "not the guard id of any
 * action_pair step" is said only when every step's name and guard id is known.
 */
export function checkGoal(raw: CheckableWorkflow, known: Knowledge, problems: Problems): void {
  if (raw.goal === undefined) return;
  // A step that did not parse whole is not listed: its guard id is a guess (and never judged, below).
  const steps = [...present(raw.steps)].filter(([, i]) => !known.partialSteps.has(i)).map(([step]) => step);
  const guardIds = steps.filter((step) => stepType(step) === "action_pair").map((step) => step.guard_id ?? step.name);
  const judged = (guardId: string) => known.producers && known.stepNames && !known.possibleProducers.has(guardId) && !known.possibleStepNames.has(guardId);
  const seen = new Set<string>();
  for (const [guardId, index] of present(raw.goal)) {
    if (seen.has(guardId)) problems.add(["goal", index], `"${guardId}" is listed twice`);
    else if (!guardIds.includes(guardId) && judged(guardId)) {
      const listed = guardIds.length > 0 ? `the guard ids are ${guardIds.map((id) => `"${id}"`).join(", ")}` : "this workflow has no action_pair step";
      problems.add(["goal", index], `"${guardId}" is not the guard id of any action_pair step (${listed})`);
    }
    seen.add(guardId);
  }
}
