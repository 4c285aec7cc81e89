-- CreateEnum
CREATE TYPE "ExperimentStatus" AS ENUM ('queued', 'running', 'completed', 'cancelled', 'failed');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "budget" JSONB,
ADD COLUMN     "completionTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "experimentId" TEXT,
ADD COLUMN     "promptTokens" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Escalation" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'guard';

-- CreateTable
CREATE TABLE "ModelPrice" (
    "model" TEXT NOT NULL,
    "inputUsdPerMillion" DOUBLE PRECISION NOT NULL,
    "outputUsdPerMillion" DOUBLE PRECISION NOT NULL,
    "updatedBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ModelPrice_pkey" PRIMARY KEY ("model")
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Dataset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetVersion" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DatasetVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetCase" (
    "id" TEXT NOT NULL,
    "datasetVersionId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "specification" TEXT NOT NULL,
    "variables" JSONB,
    "checks" JSONB,
    "sourceRunId" TEXT,
    "sourceEscalationId" TEXT,

    CONSTRAINT "DatasetCase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "workflowVersionId" TEXT NOT NULL,
    "datasetVersionId" TEXT NOT NULL,
    "k" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "status" "ExperimentStatus" NOT NULL DEFAULT 'queued',
    "createdBy" TEXT NOT NULL,
    "generatorOverride" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Experiment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExperimentSample" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "caseId" TEXT NOT NULL,
    "sample" INTEGER NOT NULL,
    "runId" TEXT,
    "startedAt" TIMESTAMP(3),
    "outcome" TEXT,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ExperimentSample_pkey" PRIMARY KEY ("id")
);

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

-- CreateIndex
CREATE INDEX "Run_experimentId_idx" ON "Run"("experimentId");

-- AddForeignKey
ALTER TABLE "DatasetVersion" ADD CONSTRAINT "DatasetVersion_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetCase" ADD CONSTRAINT "DatasetCase_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExperimentSample" ADD CONSTRAINT "ExperimentSample_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

