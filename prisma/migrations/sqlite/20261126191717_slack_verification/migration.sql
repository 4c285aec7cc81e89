-- CreateTable
CREATE TABLE "SlackVerification" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "slackUserId" TEXT NOT NULL,
    "codeHash" TEXT,
    "codeExpiresAt" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "sendsInWindow" INTEGER NOT NULL DEFAULT 0,
    "windowStartedAt" DATETIME,
    "lastSentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SlackVerification_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "SlackVerification_slackUserId_idx" ON "SlackVerification"("slackUserId");


-- Links made before verification existed were self-declared: each becomes an unverified claim
-- its owner confirms with a code, and stops attributing clicks and receiving direct messages.
INSERT INTO "SlackVerification" ("userId", "slackUserId") SELECT "id", "slackUserId" FROM "User" WHERE "slackUserId" IS NOT NULL;
UPDATE "User" SET "slackUserId" = NULL WHERE "slackUserId" IS NOT NULL;
