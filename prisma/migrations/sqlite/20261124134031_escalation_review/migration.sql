-- AlterTable
ALTER TABLE "Escalation" ADD COLUMN "claimedAt" DATETIME;
ALTER TABLE "Escalation" ADD COLUMN "claimedBy" TEXT;
ALTER TABLE "Escalation" ADD COLUMN "decidedHash" TEXT;
ALTER TABLE "Escalation" ADD COLUMN "decision" TEXT;

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "escalationId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "deliveredAt" DATETIME,
    "failedAt" DATETIME,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_deliveredAt_failedAt_nextAttemptAt_idx" ON "WebhookDelivery"("deliveredAt", "failedAt", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_escalationId_event_key" ON "WebhookDelivery"("escalationId", "event");

