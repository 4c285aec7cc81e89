-- CreateTable
CREATE TABLE "SlackVerification" (
    "userId" TEXT NOT NULL,
    "slackUserId" TEXT NOT NULL,
    "codeHash" TEXT,
    "codeExpiresAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "sendsInWindow" INTEGER NOT NULL DEFAULT 0,
    "windowStartedAt" TIMESTAMP(3),
    "lastSentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SlackVerification_pkey" PRIMARY KEY ("userId")
);

-- CreateIndex
CREATE INDEX "SlackVerification_slackUserId_idx" ON "SlackVerification"("slackUserId");

-- AddForeignKey
ALTER TABLE "SlackVerification" ADD CONSTRAINT "SlackVerification_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Links made before verification existed were self-declared: each becomes an unverified claim
-- its owner confirms with a code, and stops attributing clicks and receiving direct messages.
INSERT INTO "SlackVerification" ("userId", "slackUserId") SELECT "id", "slackUserId" FROM "User" WHERE "slackUserId" IS NOT NULL;
UPDATE "User" SET "slackUserId" = NULL WHERE "slackUserId" IS NOT NULL;
