/** A pending escalation's place in the review order: the oldest deadline first, then the oldest raised. */
export interface QueuePlace {
  readonly id: string;
  readonly expiresAt: Date | null;
  readonly createdAt: Date;
}

/** Orders two places as the review queue does (no deadline comes last). */
export function compareQueuePlaces(a: QueuePlace, b: QueuePlace): number {
  const deadline = (a.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY) - (b.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
  if (deadline !== 0 && !Number.isNaN(deadline)) return deadline;
  const raised = a.createdAt.getTime() - b.createdAt.getTime();
  if (raised !== 0) return raised;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The pending escalation to review after `current`: the first one after it in queue order, or,
 * when `current` was the last, the first of the queue (never `current` itself). `current` may
 * be decided already and so missing from `pending`; its place still says where to go on from.
 */
export function nextPendingAfter(pending: readonly QueuePlace[], current: QueuePlace | null): string | null {
  const ordered = [...pending].sort(compareQueuePlaces).filter((place) => place.id !== current?.id);
  if (!current) return ordered[0]?.id ?? null;
  return (ordered.find((place) => compareQueuePlaces(place, current) > 0) ?? ordered[0])?.id ?? null;
}
