/** The attempts of one step, in the order they were made. */
export interface StepAttempts<T> {
  stepName: string;
  attempts: T[];
}

/**
 * Groups attempts by step, steps in the order of their first attempt. A step revisited later
 * (a loop in the workflow) stays one group, its attempts still in order.
 */
export function groupAttemptsByStep<T extends { stepName: string }>(attempts: readonly T[]): StepAttempts<T>[] {
  const groups = new Map<string, T[]>();
  for (const attempt of attempts) {
    const group = groups.get(attempt.stepName);
    if (group) group.push(attempt);
    else groups.set(attempt.stepName, [attempt]);
  }
  return [...groups].map(([stepName, grouped]) => ({ stepName, attempts: grouped }));
}
