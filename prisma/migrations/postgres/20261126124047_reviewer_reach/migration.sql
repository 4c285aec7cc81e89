-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "startedBy" TEXT;

-- AlterTable
ALTER TABLE "Escalation" ADD COLUMN     "approvalCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "handedOffAt" TIMESTAMP(3),
ADD COLUMN     "policy" JSONB,
ADD COLUMN     "reviewGroup" TEXT,
ADD COLUMN     "routedAt" TIMESTAMP(3),
ADD COLUMN     "routingVersion" INTEGER;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "notifyBySlack" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "slackUserId" TEXT;

-- CreateTable
CREATE TABLE "EscalationApproval" (
    "escalationId" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "vote" TEXT NOT NULL,
    "comment" TEXT,
    "contentHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EscalationApproval_pkey" PRIMARY KEY ("escalationId","reviewer")
);

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL,
    "escalationId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "endLine" INTEGER,
    "body" TEXT NOT NULL,
    "suggestion" TEXT,
    "decision" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewerGroup" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "notifyEmail" BOOLEAN NOT NULL DEFAULT true,
    "notifySlack" BOOLEAN NOT NULL DEFAULT false,
    "slackWebhookUrl" TEXT,
    "slackChannel" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewerGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewerGroupMember" (
    "groupId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "addedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewerGroupMember_pkey" PRIMARY KEY ("groupId","userId")
);

-- CreateTable
CREATE TABLE "RoutingVersion" (
    "id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "comment" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RoutingVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReviewComment_escalationId_idx" ON "ReviewComment"("escalationId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewerGroup_name_key" ON "ReviewerGroup"("name");

-- CreateIndex
CREATE INDEX "ReviewerGroupMember_userId_idx" ON "ReviewerGroupMember"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "RoutingVersion_version_key" ON "RoutingVersion"("version");

-- CreateIndex
CREATE UNIQUE INDEX "User_slackUserId_key" ON "User"("slackUserId");

-- AddForeignKey
ALTER TABLE "EscalationApproval" ADD CONSTRAINT "EscalationApproval_escalationId_fkey" FOREIGN KEY ("escalationId") REFERENCES "Escalation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_escalationId_fkey" FOREIGN KEY ("escalationId") REFERENCES "Escalation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewerGroupMember" ADD CONSTRAINT "ReviewerGroupMember_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "ReviewerGroup"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewerGroupMember" ADD CONSTRAINT "ReviewerGroupMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

