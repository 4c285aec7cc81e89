-- CreateTable
CREATE TABLE "EscalationView" (
    "escalationId" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "firstViewedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EscalationView_pkey" PRIMARY KEY ("escalationId","reviewer")
);

-- AddForeignKey
ALTER TABLE "EscalationView" ADD CONSTRAINT "EscalationView_escalationId_fkey" FOREIGN KEY ("escalationId") REFERENCES "Escalation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

