-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "forkedFromAttempt" TEXT,
ADD COLUMN     "forkedFromRunId" TEXT;

-- CreateTable
CREATE TABLE "LiveCall" (
    "runId" TEXT NOT NULL,
    "stepName" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "epoch" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LiveCall_pkey" PRIMARY KEY ("runId")
);

