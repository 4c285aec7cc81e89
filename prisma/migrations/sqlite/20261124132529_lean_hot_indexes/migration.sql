-- DropIndex
DROP INDEX "Run_status_idx";

-- DropIndex
DROP INDEX "InboxMessage_status_nextRetryAt_createdAt_idx";

