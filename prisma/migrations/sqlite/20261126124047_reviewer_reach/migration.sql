-- AlterTable
ALTER TABLE "Run" ADD COLUMN "startedBy" TEXT;

-- CreateTable
CREATE TABLE "EscalationApproval" (
    "escalationId" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "vote" TEXT NOT NULL,
    "comment" TEXT,
    "contentHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("escalationId", "reviewer"),
    CONSTRAINT "EscalationApproval_escalationId_fkey" FOREIGN KEY ("escalationId") REFERENCES "Escalation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "escalationId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "endLine" INTEGER,
    "body" TEXT NOT NULL,
    "suggestion" TEXT,
    "decision" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReviewComment_escalationId_fkey" FOREIGN KEY ("escalationId") REFERENCES "Escalation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewerGroup" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "notifyEmail" BOOLEAN NOT NULL DEFAULT true,
    "notifySlack" BOOLEAN NOT NULL DEFAULT false,
    "slackWebhookUrl" TEXT,
    "slackChannel" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ReviewerGroupMember" (
    "groupId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "addedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("groupId", "userId"),
    CONSTRAINT "ReviewerGroupMember_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "ReviewerGroup" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewerGroupMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RoutingVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "comment" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

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
    "routedAt" DATETIME,
    "routingVersion" INTEGER,
    "policy" JSONB,
    "reviewGroup" TEXT,
    "handedOffAt" DATETIME,
    "approvalCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Escalation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Escalation_artifactId_fkey" FOREIGN KEY ("artifactId") REFERENCES "Artifact" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Escalation" ("artifactId", "claimedAt", "claimedBy", "comment", "createdAt", "decidedAt", "decidedBy", "decidedHash", "decision", "decisionKey", "expiresAt", "feedback", "guardId", "id", "kind", "runId", "status", "stepName") SELECT "artifactId", "claimedAt", "claimedBy", "comment", "createdAt", "decidedAt", "decidedBy", "decidedHash", "decision", "decisionKey", "expiresAt", "feedback", "guardId", "id", "kind", "runId", "status", "stepName" FROM "Escalation";
DROP TABLE "Escalation";
ALTER TABLE "new_Escalation" RENAME TO "Escalation";
CREATE INDEX "Escalation_status_createdAt_idx" ON "Escalation"("status", "createdAt");
CREATE INDEX "Escalation_runId_idx" ON "Escalation"("runId");
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "notifyByEmail" BOOLEAN NOT NULL DEFAULT true,
    "notifyBySlack" BOOLEAN NOT NULL DEFAULT false,
    "slackUserId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_User" ("createdAt", "disabled", "email", "emailVerified", "id", "image", "name", "notifyByEmail", "role", "updatedAt") SELECT "createdAt", "disabled", "email", "emailVerified", "id", "image", "name", "notifyByEmail", "role", "updatedAt" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE UNIQUE INDEX "User_slackUserId_key" ON "User"("slackUserId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ReviewComment_escalationId_idx" ON "ReviewComment"("escalationId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewerGroup_name_key" ON "ReviewerGroup"("name");

-- CreateIndex
CREATE INDEX "ReviewerGroupMember_userId_idx" ON "ReviewerGroupMember"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "RoutingVersion_version_key" ON "RoutingVersion"("version");

