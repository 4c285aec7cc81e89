import type { RawWorkflow } from "./definition-schema";
import { stepType } from "./normalize";
import type { Problems } from "./problems";

/**
 * `goal` lists guard ids (000 Sgoal): each must be the guard of an action_pair step (its
 * guard_id, or its name when it has none), once. Runs on a parsed workflow only.
 */
export function checkGoal(raw: RawWorkflow, problems: Problems): void {
  if (raw.goal === undefined) return;
  const guardIds = raw.steps.filter((step) => stepType(step) === "action_pair").map((step) => step.guard_id ?? step.name);
  const seen = new Set<string>();
  raw.goal.forEach((guardId, index) => {
    if (seen.has(guardId)) problems.add(["goal", index], `"${guardId}" is listed twice`);
    else if (!guardIds.includes(guardId)) {
      const known = guardIds.length > 0 ? `the guard ids are ${guardIds.map((id) => `"${id}"`).join(", ")}` : "this workflow has no action_pair step";
      problems.add(["goal", index], `"${guardId}" is not the guard id of any action_pair step (${known})`);
    }
    seen.add(guardId);
  });
}
