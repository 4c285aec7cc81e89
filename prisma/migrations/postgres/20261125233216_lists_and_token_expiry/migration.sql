-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "expiresAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Run_workflowVersionId_createdAt_idx" ON "Run"("workflowVersionId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_actorEmail_at_idx" ON "AuditEvent"("actorEmail", "at");

