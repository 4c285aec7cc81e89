-- The claim's index (issue 6): due messages in (nextRetryAt, createdAt) order, holding only the
-- claimable ones, so a claim walks it from the front instead of sorting the whole inbox. Prisma's
-- models cannot express a partial index; the `_partial_idx` suffix tells the drift test so.
CREATE INDEX "InboxMessage_due_partial_idx" ON "InboxMessage"("nextRetryAt", "createdAt") WHERE "status" IN ('pending', 'deferred');
