-- DropIndex
DROP INDEX "Run_status_leaseExpiresAt_idx";

-- DropIndex
DROP INDEX "Run_status_resumeDeadline_idx";

-- DropIndex
DROP INDEX "LedgerEntry_runId_seq_key";

-- AlterTable
ALTER TABLE "LedgerEntry" DROP CONSTRAINT "LedgerEntry_pkey",
ADD CONSTRAINT "LedgerEntry_pkey" PRIMARY KEY ("runId", "seq");


-- The watchdog's sweeps and /metrics over live runs only (prisma/models.prisma, model Run); the
-- status list is LIVE_RUN_STATUSES (server/durable/lifecycle.ts), spelled the same in their queries.
CREATE INDEX "Run_live_partial_idx" ON "Run"("status", "resumeDeadline", "leaseExpiresAt") WHERE "status" IN ('queued', 'suspended', 'dispatched', 'running');
