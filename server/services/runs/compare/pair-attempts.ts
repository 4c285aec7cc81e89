/** The fields pairing needs: attempts in run order. */
export interface PairableAttempt {
  readonly stepName: string;
  readonly attempt: number;
}

export interface AttemptPair<T extends PairableAttempt> {
  /** "implement/attempt-2", with "#2" for the second time that attempt number occurs in the step (a revisited state, a reviewer's edit). */
  readonly key: string;
  readonly stepName: string;
  readonly attempt: number;
  readonly a: T | null;
  readonly b: T | null;
}

function keyed<T extends PairableAttempt>(attempts: readonly T[]): [string, T][] {
  const seen = new Map<string, number>();
  return attempts.map((attempt) => {
    const base = `${attempt.stepName}/attempt-${attempt.attempt}`;
    const occurrence = (seen.get(base) ?? 0) + 1;
    seen.set(base, occurrence);
    return [occurrence === 1 ? base : `${base}#${occurrence}`, attempt];
  });
}

/**
 * Lines up the attempts of two runs of one workflow: the n-th occurrence of a step's attempt k
 * in one run faces the same in the other. The order is run a's, with attempts only run b made
 * placed after the last attempt of their step in that order (at the end for a step a never reached).
 */
export function pairAttempts<T extends PairableAttempt>(a: readonly T[], b: readonly T[]): AttemptPair<T>[] {
  const fromB = new Map(keyed(b));
  const pairs: AttemptPair<T>[] = keyed(a).map(([key, attempt]) => {
    const other = fromB.get(key) ?? null;
    fromB.delete(key);
    return { key, stepName: attempt.stepName, attempt: attempt.attempt, a: attempt, b: other };
  });
  for (const [key, attempt] of fromB) {
    const pair = { key, stepName: attempt.stepName, attempt: attempt.attempt, a: null, b: attempt };
    const lastOfStep = pairs.findLastIndex((existing) => existing.stepName === attempt.stepName);
    pairs.splice(lastOfStep === -1 ? pairs.length : lastOfStep + 1, 0, pair);
  }
  return pairs;
}
