-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Artifact" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "stepName" TEXT NOT NULL,
    "stepKind" TEXT NOT NULL DEFAULT 'action_pair',
    "guardId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "parentId" TEXT,
    "content" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "language" TEXT,
    "passed" BOOLEAN NOT NULL,
    "fatal" BOOLEAN NOT NULL,
    "feedback" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Artifact_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Artifact_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Artifact" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Artifact" ("attempt", "content", "contentHash", "createdAt", "fatal", "feedback", "guardId", "id", "language", "parentId", "passed", "runId", "stepName") SELECT "attempt", "content", "contentHash", "createdAt", "fatal", "feedback", "guardId", "id", "language", "parentId", "passed", "runId", "stepName" FROM "Artifact";
DROP TABLE "Artifact";
ALTER TABLE "new_Artifact" RENAME TO "Artifact";
CREATE INDEX "Artifact_runId_createdAt_idx" ON "Artifact"("runId", "createdAt");
CREATE INDEX "Artifact_parentId_idx" ON "Artifact"("parentId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

