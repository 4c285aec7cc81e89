import { randomUUID } from "node:crypto";
import type { Db } from "@/server/persistence/db";
import { ringLocalDoorbell } from "@/server/worker/doorbell";
import { conflict, notFound } from "../errors";

const ENDED = ["succeeded", "failed", "escalated", "cancelled"];

/**
 * Asks for a run to be cancelled: a cancel message in its inbox (003: the inbox is the source of
 * truth). The worker that claims it takes the run over with a new epoch, so a turn still running
 * stops at its next write; the run ends "cancelled" with its result delivered. `cancelledBy` (the
 * person's email) travels in the message and is recorded in the run's ledger (`run.cancelled`).
 */
export async function cancelRun(db: Db, input: { id: string; reason?: string }, cancelledBy?: string): Promise<{ id: string; status: "cancelling" }> {
  await db.$transaction(async (tx) => {
    const run = await tx.run.findUnique({ where: { id: input.id }, select: { status: true } });
    if (!run) throw notFound("Run", input.id);
    if (ENDED.includes(run.status)) throw conflict(`run "${input.id}" already ended (${run.status}); there is nothing to cancel`);
    const now = new Date();
    await tx.inboxMessage.create({ data: { id: randomUUID(), runId: input.id, kind: "cancel", payload: { reason: input.reason?.trim() || "cancelled from the dashboard", ...(cancelledBy ? { by: cancelledBy } : {}) }, nextRetryAt: now, createdAt: now }, select: { id: true } });
    if ((tx as { _activeProvider?: string })._activeProvider === "postgresql") await tx.$executeRawUnsafe(`SELECT pg_notify('dualstate_inbox', $1)`, input.id);
  });
  ringLocalDoorbell();
  return { id: input.id, status: "cancelling" };
}
