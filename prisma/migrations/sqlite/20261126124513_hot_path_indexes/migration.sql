-- The ledger's key becomes (runId, seq) and the Run status indexes give way to one partial index of
-- live runs: fewer index pages written by every claim and commit (issue 18).
-- DropIndex
DROP INDEX "Run_status_leaseExpiresAt_idx";

-- DropIndex
DROP INDEX "Run_status_resumeDeadline_idx";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_LedgerEntry" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "actor" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "callKey" TEXT,
    "epoch" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("runId", "seq"),
    CONSTRAINT "LedgerEntry_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_LedgerEntry" ("actor", "callKey", "createdAt", "epoch", "id", "payload", "runId", "seq", "type") SELECT "actor", "callKey", "createdAt", "epoch", "id", "payload", "runId", "seq", "type" FROM "LedgerEntry";
DROP TABLE "LedgerEntry";
ALTER TABLE "new_LedgerEntry" RENAME TO "LedgerEntry";
CREATE UNIQUE INDEX "LedgerEntry_runId_callKey_key" ON "LedgerEntry"("runId", "callKey");
-- The rebuilt table needs the ledger's append-only triggers again (dropped with the old table).
CREATE TRIGGER "LedgerEntry_append_only_update" BEFORE UPDATE ON "LedgerEntry"
BEGIN SELECT RAISE(ABORT, 'LedgerEntry is append-only: entries cannot be updated'); END;
CREATE TRIGGER "LedgerEntry_append_only_delete" BEFORE DELETE ON "LedgerEntry"
BEGIN SELECT RAISE(ABORT, 'LedgerEntry is append-only: entries cannot be deleted'); END;
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- The watchdog's sweeps and /metrics over live runs only (prisma/models.prisma, model Run); the
-- status list is LIVE_RUN_STATUSES (server/durable/lifecycle.ts), spelled the same in their queries.
CREATE INDEX "Run_live_partial_idx" ON "Run"("status", "resumeDeadline", "leaseExpiresAt") WHERE "status" IN ('queued', 'suspended', 'dispatched', 'running');
