-- Durable runs (issue 6): the run head's lease and epoch, the inbox, the epoch of each ledger row.
-- Columns are added in place (not by redefining tables) so the ledger's append-only triggers stay.

-- AlterTable
ALTER TABLE "Escalation" ADD COLUMN "expiresAt" DATETIME;
ALTER TABLE "Escalation" ADD COLUMN "decisionKey" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "contextValues" JSONB;
ALTER TABLE "Run" ADD COLUMN "generatorOverride" JSONB;
ALTER TABLE "Run" ADD COLUMN "epoch" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Run" ADD COLUMN "activeTurnId" TEXT;
ALTER TABLE "Run" ADD COLUMN "leaseOwner" TEXT;
ALTER TABLE "Run" ADD COLUMN "leaseExpiresAt" DATETIME;
ALTER TABLE "Run" ADD COLUMN "resumeDeadline" DATETIME;
ALTER TABLE "Run" ADD COLUMN "watchdogNote" TEXT;

-- AlterTable
ALTER TABLE "LedgerEntry" ADD COLUMN "epoch" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "InboxMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "payload" JSONB NOT NULL,
    "retryCount" INTEGER NOT NULL DEFAULT 0,
    "nextRetryAt" DATETIME NOT NULL,
    "deferReason" TEXT,
    "epoch" INTEGER,
    "claimedBy" TEXT,
    "claimedAt" DATETIME,
    "doneAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "InboxMessage_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Run_status_leaseExpiresAt_idx" ON "Run"("status", "leaseExpiresAt");
CREATE INDEX "Run_status_resumeDeadline_idx" ON "Run"("status", "resumeDeadline");
CREATE INDEX "InboxMessage_status_nextRetryAt_createdAt_idx" ON "InboxMessage"("status", "nextRetryAt", "createdAt");
CREATE INDEX "InboxMessage_runId_status_idx" ON "InboxMessage"("runId", "status");
