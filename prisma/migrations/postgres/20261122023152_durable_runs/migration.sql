-- CreateEnum
CREATE TYPE "InboxKind" AS ENUM ('start', 'resume', 'timeout', 'cancel');

-- CreateEnum
CREATE TYPE "InboxStatus" AS ENUM ('pending', 'deferred', 'claimed', 'done');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "activeTurnId" TEXT,
ADD COLUMN     "contextValues" JSONB,
ADD COLUMN     "epoch" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "generatorOverride" JSONB,
ADD COLUMN     "leaseExpiresAt" TIMESTAMP(3),
ADD COLUMN     "leaseOwner" TEXT,
ADD COLUMN     "resumeDeadline" TIMESTAMP(3),
ADD COLUMN     "watchdogNote" TEXT;

-- AlterTable
ALTER TABLE "LedgerEntry" ADD COLUMN     "epoch" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Escalation" ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "decisionKey" TEXT;

-- CreateTable
CREATE TABLE "InboxMessage" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "kind" "InboxKind" NOT NULL,
    "status" "InboxStatus" NOT NULL DEFAULT 'pending',
    "payload" JSONB NOT NULL,
    "retryCount" INTEGER NOT NULL DEFAULT 0,
    "nextRetryAt" TIMESTAMP(3) NOT NULL,
    "deferReason" TEXT,
    "epoch" INTEGER,
    "claimedBy" TEXT,
    "claimedAt" TIMESTAMP(3),
    "doneAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InboxMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "InboxMessage_status_nextRetryAt_createdAt_idx" ON "InboxMessage"("status", "nextRetryAt", "createdAt");

-- CreateIndex
CREATE INDEX "InboxMessage_runId_status_idx" ON "InboxMessage"("runId", "status");

-- CreateIndex
CREATE INDEX "Run_status_leaseExpiresAt_idx" ON "Run"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "Run_status_resumeDeadline_idx" ON "Run"("status", "resumeDeadline");

-- AddForeignKey
ALTER TABLE "InboxMessage" ADD CONSTRAINT "InboxMessage_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

