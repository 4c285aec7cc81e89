-- CreateTable
CREATE TABLE "EscalationView" (
    "escalationId" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "firstViewedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("escalationId", "reviewer"),
    CONSTRAINT "EscalationView_escalationId_fkey" FOREIGN KEY ("escalationId") REFERENCES "Escalation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

