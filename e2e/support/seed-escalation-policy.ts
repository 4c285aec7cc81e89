// Routes one pending escalation of the e2e database as the routing pass would (policy, group), with a
// backup group holding `BACKUP_MEMBER`, and moves its raising `HOURS_AGO` hours back: a simulated
// clock, so the server's watchdog finds the backup due (docs/deadlines.md).
// Run by e2e/deadlines.spec.ts: node --import tsx e2e/support/seed-escalation-policy.ts ESCALATION_ID BACKUP_MEMBER HOURS_AGO
import { randomUUID } from "node:crypto";
import { createDb } from "@/server/persistence/db";

const url = process.env.DATABASE_URL;
if (!url?.startsWith("file:./data/e2e/")) throw new Error(`seed-escalation-policy: expected the e2e database's DATABASE_URL, got "${url}"`);
const [escalationId, backupMember, hoursAgo] = process.argv.slice(2);
if (!escalationId || !backupMember || !hoursAgo) throw new Error("usage: seed-escalation-policy.ts ESCALATION_ID BACKUP_MEMBER HOURS_AGO");
const db = createDb(url);
try {
  const member = await db.user.findUniqueOrThrow({ where: { email: backupMember }, select: { id: true } });
  const oncall = `oncall-${escalationId.slice(0, 8)}`;
  await db.reviewerGroup.create({ data: { id: randomUUID(), name: oncall, members: { create: [{ userId: member.id }] } } });
  const escalation = await db.escalation.findUniqueOrThrow({ where: { id: escalationId }, select: { createdAt: true } });
  const policy = {
    group: "security",
    quorum: { approvals: 1, excludeRunStarter: false, rejections: 1 },
    deadline: { hours: 8, action: "handoff", handoffGroup: "leads", handoffHours: 4 },
    backup: { group: oncall, afterHours: 1 },
    channels: ["email"],
    rule: "e2e deadlines",
  };
  await db.escalation.update({
    where: { id: escalationId },
    data: { policy, routedAt: new Date(), routingVersion: 1, reviewGroup: "security", createdAt: new Date(escalation.createdAt.getTime() - Number(hoursAgo) * 3_600_000) },
  });
  console.log(oncall);
} finally {
  await db.$disconnect();
}
