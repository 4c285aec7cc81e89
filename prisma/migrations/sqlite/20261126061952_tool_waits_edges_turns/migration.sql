-- CreateTable
CREATE TABLE "ToolWait" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "callKey" TEXT NOT NULL,
    "stepName" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "tool" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "question" TEXT,
    "resultSchema" JSONB,
    "workflow" TEXT,
    "childRunId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'waiting',
    "deadlineAt" DATETIME NOT NULL,
    "result" JSONB,
    "reportedBy" TEXT,
    "reportedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ToolWait_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExecutionEdge" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "primitive" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "kind" TEXT,
    "fromRunId" TEXT,
    "callId" TEXT,
    "detail" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "TurnRecord" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "epoch" INTEGER NOT NULL,
    "messageId" TEXT,
    "kind" TEXT,
    "workerId" TEXT,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "detail" JSONB,
    "endedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TurnRecord_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowVersionId" TEXT,
    "specification" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "workflowState" JSONB NOT NULL,
    "currentStep" TEXT,
    "currentState" TEXT,
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "stepsCompleted" INTEGER NOT NULL DEFAULT 0,
    "finalResult" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "contextValues" JSONB,
    "generatorOverride" JSONB,
    "epoch" INTEGER NOT NULL DEFAULT 0,
    "activeTurnId" TEXT,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "resumeDeadline" DATETIME,
    "watchdogNote" TEXT,
    "forkedFromRunId" TEXT,
    "forkedFromAttempt" TEXT,
    "waitingToolCount" INTEGER NOT NULL DEFAULT 0,
    "parentRunId" TEXT,
    "parentCallId" TEXT,
    CONSTRAINT "Run_workflowVersionId_fkey" FOREIGN KEY ("workflowVersionId") REFERENCES "WorkflowVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("activeTurnId", "attemptCount", "contextValues", "createdAt", "currentState", "currentStep", "epoch", "finalResult", "finishedAt", "forkedFromAttempt", "forkedFromRunId", "generatorOverride", "id", "leaseExpiresAt", "leaseOwner", "resumeDeadline", "specification", "startedAt", "status", "stepsCompleted", "updatedAt", "watchdogNote", "workflowState", "workflowVersionId") SELECT "activeTurnId", "attemptCount", "contextValues", "createdAt", "currentState", "currentStep", "epoch", "finalResult", "finishedAt", "forkedFromAttempt", "forkedFromRunId", "generatorOverride", "id", "leaseExpiresAt", "leaseOwner", "resumeDeadline", "specification", "startedAt", "status", "stepsCompleted", "updatedAt", "watchdogNote", "workflowState", "workflowVersionId" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");
CREATE INDEX "Run_workflowVersionId_createdAt_idx" ON "Run"("workflowVersionId", "createdAt");
CREATE INDEX "Run_status_leaseExpiresAt_idx" ON "Run"("status", "leaseExpiresAt");
CREATE INDEX "Run_status_resumeDeadline_idx" ON "Run"("status", "resumeDeadline");
CREATE INDEX "Run_parentRunId_idx" ON "Run"("parentRunId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ToolWait_status_deadlineAt_idx" ON "ToolWait"("status", "deadlineAt");

-- CreateIndex
CREATE INDEX "ToolWait_childRunId_idx" ON "ToolWait"("childRunId");

-- CreateIndex
CREATE INDEX "ToolWait_kind_status_createdAt_idx" ON "ToolWait"("kind", "status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ToolWait_runId_callKey_key" ON "ToolWait"("runId", "callKey");

-- CreateIndex
CREATE INDEX "ExecutionEdge_runId_createdAt_idx" ON "ExecutionEdge"("runId", "createdAt");

-- CreateIndex
CREATE INDEX "ExecutionEdge_fromRunId_idx" ON "ExecutionEdge"("fromRunId");

-- CreateIndex
CREATE UNIQUE INDEX "TurnRecord_runId_epoch_key" ON "TurnRecord"("runId", "epoch");

