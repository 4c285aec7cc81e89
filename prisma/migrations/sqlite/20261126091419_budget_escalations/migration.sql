-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Escalation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL DEFAULT 'guard',
    "runId" TEXT NOT NULL,
    "artifactId" TEXT,
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
INSERT INTO "new_Escalation" ("artifactId", "claimedAt", "claimedBy", "comment", "createdAt", "decidedAt", "decidedBy", "decidedHash", "decision", "decisionKey", "expiresAt", "feedback", "guardId", "id", "kind", "runId", "status", "stepName") SELECT "artifactId", "claimedAt", "claimedBy", "comment", "createdAt", "decidedAt", "decidedBy", "decidedHash", "decision", "decisionKey", "expiresAt", "feedback", "guardId", "id", "kind", "runId", "status", "stepName" FROM "Escalation";
DROP TABLE "Escalation";
ALTER TABLE "new_Escalation" RENAME TO "Escalation";
CREATE INDEX "Escalation_status_createdAt_idx" ON "Escalation"("status", "createdAt");
CREATE INDEX "Escalation_runId_idx" ON "Escalation"("runId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

