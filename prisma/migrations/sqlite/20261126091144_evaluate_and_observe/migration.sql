-- CreateTable
CREATE TABLE "ModelPrice" (
    "model" TEXT NOT NULL PRIMARY KEY,
    "inputUsdPerMillion" REAL NOT NULL,
    "outputUsdPerMillion" REAL NOT NULL,
    "updatedBy" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "DatasetVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DatasetVersion_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DatasetCase" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetVersionId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "specification" TEXT NOT NULL,
    "variables" JSONB,
    "checks" JSONB,
    "sourceRunId" TEXT,
    "sourceEscalationId" TEXT,
    CONSTRAINT "DatasetCase_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "workflowVersionId" TEXT NOT NULL,
    "datasetVersionId" TEXT NOT NULL,
    "k" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "createdBy" TEXT NOT NULL,
    "generatorOverride" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "Experiment_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExperimentSample" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "experimentId" TEXT NOT NULL,
    "caseId" TEXT NOT NULL,
    "sample" INTEGER NOT NULL,
    "runId" TEXT,
    "startedAt" DATETIME,
    "outcome" TEXT,
    "finishedAt" DATETIME,
    CONSTRAINT "ExperimentSample_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "budget" JSONB,
    "experimentId" TEXT,
    CONSTRAINT "Run_workflowVersionId_fkey" FOREIGN KEY ("workflowVersionId") REFERENCES "WorkflowVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("activeTurnId", "attemptCount", "contextValues", "createdAt", "currentState", "currentStep", "epoch", "finalResult", "finishedAt", "forkedFromAttempt", "forkedFromRunId", "generatorOverride", "id", "leaseExpiresAt", "leaseOwner", "parentCallId", "parentRunId", "resumeDeadline", "specification", "startedAt", "status", "stepsCompleted", "updatedAt", "waitingToolCount", "watchdogNote", "workflowState", "workflowVersionId") SELECT "activeTurnId", "attemptCount", "contextValues", "createdAt", "currentState", "currentStep", "epoch", "finalResult", "finishedAt", "forkedFromAttempt", "forkedFromRunId", "generatorOverride", "id", "leaseExpiresAt", "leaseOwner", "parentCallId", "parentRunId", "resumeDeadline", "specification", "startedAt", "status", "stepsCompleted", "updatedAt", "waitingToolCount", "watchdogNote", "workflowState", "workflowVersionId" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");
CREATE INDEX "Run_workflowVersionId_createdAt_idx" ON "Run"("workflowVersionId", "createdAt");
CREATE INDEX "Run_status_leaseExpiresAt_idx" ON "Run"("status", "leaseExpiresAt");
CREATE INDEX "Run_status_resumeDeadline_idx" ON "Run"("status", "resumeDeadline");
CREATE INDEX "Run_parentRunId_idx" ON "Run"("parentRunId");
CREATE INDEX "Run_experimentId_idx" ON "Run"("experimentId");
CREATE TABLE "new_Escalation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL DEFAULT 'guard',
    "runId" TEXT NOT NULL,
    "artifactId" TEXT NOT NULL,
    "stepName" TEXT NOT NULL,
    "guardId" TEXT NOT NULL,
    "feedback" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "decidedBy" TEXT,
    "decidedAt" DATETIME,
    "comment" TEXT,
    "expiresAt" DATETIME,
    "decisionKey" TEXT,
    "claimedBy" TEXT,
    "claimedAt" DATETIME,
    "decision" TEXT,
    "decidedHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Escalation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Escalation_artifactId_fkey" FOREIGN KEY ("artifactId") REFERENCES "Artifact" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Escalation" ("artifactId", "claimedAt", "claimedBy", "comment", "createdAt", "decidedAt", "decidedBy", "decidedHash", "decision", "decisionKey", "expiresAt", "feedback", "guardId", "id", "runId", "status", "stepName") SELECT "artifactId", "claimedAt", "claimedBy", "comment", "createdAt", "decidedAt", "decidedBy", "decidedHash", "decision", "decisionKey", "expiresAt", "feedback", "guardId", "id", "runId", "status", "stepName" FROM "Escalation";
DROP TABLE "Escalation";
ALTER TABLE "new_Escalation" RENAME TO "Escalation";
CREATE INDEX "Escalation_status_createdAt_idx" ON "Escalation"("status", "createdAt");
CREATE INDEX "Escalation_runId_idx" ON "Escalation"("runId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Dataset_name_key" ON "Dataset"("name");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetVersion_datasetId_version_key" ON "DatasetVersion"("datasetId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetCase_datasetVersionId_position_key" ON "DatasetCase"("datasetVersionId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetCase_datasetVersionId_key_key" ON "DatasetCase"("datasetVersionId", "key");

-- CreateIndex
CREATE INDEX "Experiment_createdAt_idx" ON "Experiment"("createdAt");

-- CreateIndex
CREATE INDEX "Experiment_status_idx" ON "Experiment"("status");

-- CreateIndex
CREATE UNIQUE INDEX "ExperimentSample_runId_key" ON "ExperimentSample"("runId");

-- CreateIndex
CREATE INDEX "ExperimentSample_experimentId_runId_idx" ON "ExperimentSample"("experimentId", "runId");

-- CreateIndex
CREATE UNIQUE INDEX "ExperimentSample_experimentId_caseId_sample_key" ON "ExperimentSample"("experimentId", "caseId", "sample");

