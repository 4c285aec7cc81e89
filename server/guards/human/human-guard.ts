import type { Guard, GuardResult } from "../../engine";

/**
 * The verdict comes from a person. Until one decides, the guard escalates (a fatal verdict
 * marked `awaiting: "human"`), which stops the step without retrying and puts the artifact in
 * front of a reviewer; the review queue turns the decision into the final verdict.
 */
export function createHumanGuard(instructions: string | undefined): Guard {
  const feedback = instructions?.trim() ? `Awaiting a human decision: ${instructions.trim()}` : "Awaiting a human decision";
  const verdict: GuardResult = Object.freeze({ passed: false, fatal: true, feedback, awaiting: "human" });
  return { validate: async () => verdict };
}
