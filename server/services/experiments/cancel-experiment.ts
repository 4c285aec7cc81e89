import type { Db } from "@/server/persistence/db";
import { durableStoreFor } from "../durable-store-for";
import { conflict, notFound } from "../errors";

/**
 * Cancels an experiment: it stops starting runs at once (the pump starts none for a cancelled
 * experiment), samples that never started are marked cancelled, and each run in flight gets a
 * cancel message like a person's cancel; their outcomes ("cancelled", or what they reached
 * first) are copied as they end. Cancelled samples do not count in the results' rates.
 */
export async function cancelExperiment(db: Db, id: string, cancelledBy: string): Promise<{ id: string; cancelledRuns: number }> {
  const changed = await db.experiment.updateMany({ where: { id, status: { in: ["queued", "running"] } }, data: { status: "cancelled", finishedAt: new Date() } });
  if (changed.count === 0) {
    const experiment = await db.experiment.findUnique({ where: { id }, select: { status: true } });
    if (!experiment) throw notFound("Experiment", id);
    throw conflict(`experiment "${id}" already ended (${experiment.status}); there is nothing to cancel`);
  }
  await db.experimentSample.updateMany({ where: { experimentId: id, runId: null, outcome: null }, data: { outcome: "cancelled", finishedAt: new Date() } });
  const inFlight = await db.experimentSample.findMany({ where: { experimentId: id, runId: { not: null }, outcome: null }, select: { runId: true } });
  const store = durableStoreFor(db);
  let cancelledRuns = 0;
  for (const sample of inFlight) {
    // A run that ended meanwhile answers "not queued"; the pump copies its outcome.
    const outcome = await store.cancelRun(sample.runId!, { reason: `experiment ${id} cancelled`, by: cancelledBy });
    if (outcome.queued) cancelledRuns++;
  }
  return { id, cancelledRuns };
}
