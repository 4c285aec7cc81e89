/** One step's entries in the timeline: the attempts of an action pair, the runs of an llm, transition or code step. */
export interface TimelineGroup<A, R> {
  stepName: string;
  attempts: A[];
  runs: R[];
}

/**
 * Every step of the run in the order it first started (`stepOrder`), each with its attempts and
 * its runs; a step missing from the order (a run recorded before steps had a start) comes after,
 * in the order its entries came.
 */
export function groupTimeline<A extends { stepName: string }, R extends { step: string }>(attempts: readonly A[], runs: readonly R[], stepOrder: readonly string[]): TimelineGroup<A, R>[] {
  const groups = new Map<string, TimelineGroup<A, R>>(stepOrder.map((stepName) => [stepName, { stepName, attempts: [], runs: [] }]));
  const groupOf = (stepName: string) => {
    let group = groups.get(stepName);
    if (!group) groups.set(stepName, (group = { stepName, attempts: [], runs: [] }));
    return group;
  };
  for (const attempt of attempts) groupOf(attempt.stepName).attempts.push(attempt);
  for (const run of runs) groupOf(run.step).runs.push(run);
  return [...groups.values()].filter((group) => group.attempts.length > 0 || group.runs.length > 0);
}
