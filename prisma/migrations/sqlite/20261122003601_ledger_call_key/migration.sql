-- AlterTable
ALTER TABLE "LedgerEntry" ADD COLUMN "callKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "LedgerEntry_runId_callKey_key" ON "LedgerEntry"("runId", "callKey");

