import type { Db } from "@/server/persistence/db";
import { conflict, notFound } from "../errors";
import { durableStoreFor } from "../durable-store-for";

/**
 * Asks for a run to be cancelled: a cancel message in its inbox (003: the inbox is the source of
 * truth), written by the durable store, which rings the doorbell. The worker that claims it takes
 * the run over with a new epoch, so a turn still running stops at its next write; the run ends
 * "cancelled" with its result delivered. `cancelledBy` (the person's email) travels in the message
 * and is recorded in the run's ledger (`run.cancelled`).
 */
export async function cancelRun(db: Db, input: { id: string; reason?: string }, cancelledBy?: string): Promise<{ id: string; status: "cancelling" }> {
  const outcome = await durableStoreFor(db).cancelRun(input.id, { reason: input.reason?.trim() || "cancelled from the dashboard", by: cancelledBy });
  if (!outcome.queued) {
    if (outcome.status === null) throw notFound("Run", input.id);
    throw conflict(`run "${input.id}" already ended (${outcome.status}); there is nothing to cancel`);
  }
  return { id: input.id, status: "cancelling" };
}
