-- AlterTable
ALTER TABLE "Run" ADD COLUMN "forkedFromAttempt" TEXT;
ALTER TABLE "Run" ADD COLUMN "forkedFromRunId" TEXT;

-- CreateTable
CREATE TABLE "LiveCall" (
    "runId" TEXT NOT NULL PRIMARY KEY,
    "stepName" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "epoch" INTEGER NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

