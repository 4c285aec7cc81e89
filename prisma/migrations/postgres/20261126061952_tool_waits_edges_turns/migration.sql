-- CreateEnum
CREATE TYPE "ToolWaitStatus" AS ENUM ('waiting', 'reported', 'timed_out', 'cancelled');

-- AlterEnum
ALTER TYPE "InboxKind" ADD VALUE 'report';

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "parentCallId" TEXT,
ADD COLUMN     "parentRunId" TEXT,
ADD COLUMN     "waitingToolCount" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ToolWait" (
    "id" TEXT NOT NULL,
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
    "status" "ToolWaitStatus" NOT NULL DEFAULT 'waiting',
    "deadlineAt" TIMESTAMP(3) NOT NULL,
    "result" JSONB,
    "reportedBy" TEXT,
    "reportedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ToolWait_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExecutionEdge" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "primitive" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "kind" TEXT,
    "fromRunId" TEXT,
    "callId" TEXT,
    "detail" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExecutionEdge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TurnRecord" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "epoch" INTEGER NOT NULL,
    "messageId" TEXT,
    "kind" "InboxKind",
    "workerId" TEXT,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "detail" JSONB,
    "endedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TurnRecord_pkey" PRIMARY KEY ("id")
);

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

-- CreateIndex
CREATE INDEX "Run_parentRunId_idx" ON "Run"("parentRunId");

-- AddForeignKey
ALTER TABLE "ToolWait" ADD CONSTRAINT "ToolWait_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TurnRecord" ADD CONSTRAINT "TurnRecord_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

