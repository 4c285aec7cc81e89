import type { Guard, GuardResult } from "../../engine";

/** How every human guard's verdict begins: a wait for a person, not a failure (the Metrics page leaves it out). */
export const AWAITING_HUMAN_FEEDBACK = "Awaiting a human decision";

/**
 * The verdict comes from a person. Until one decides, the guard escalates (a fatal verdict
 * marked `awaiting: "human"`), which stops the step without retrying and puts the artifact in
 * front of a reviewer; the review queue turns the decision into the final verdict.
 */
export function createHumanGuard(instructions: string | undefined): Guard {
  const feedback = instructions?.trim() ? `${AWAITING_HUMAN_FEEDBACK}: ${instructions.trim()}` : AWAITING_HUMAN_FEEDBACK;
  const verdict: GuardResult = Object.freeze({ passed: false, fatal: true, feedback, awaiting: "human" });
  return { validate: async () => verdict };
}
