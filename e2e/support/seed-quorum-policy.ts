// Gives one escalation of the e2e database a quorum policy, as the routing pass would store it
// (the routing document is another page's business; this spec is about the votes).
// Run by e2e/quorum.spec.ts: node --import tsx e2e/support/seed-quorum-policy.ts ESCALATION_ID APPROVALS EXCLUDE_RUN_STARTER
import { createDb } from "@/server/persistence/db";

const url = process.env.DATABASE_URL;
if (!url?.startsWith("file:./data/e2e/")) throw new Error(`seed-quorum-policy: expected the e2e database's DATABASE_URL, got "${url}"`);
const [escalationId, approvals, exclude] = process.argv.slice(2);
if (!escalationId || !approvals || !exclude) throw new Error("usage: seed-quorum-policy.ts ESCALATION_ID APPROVALS EXCLUDE_RUN_STARTER(true|false)");
const db = createDb(url);
try {
  const quorum = { approvals: Number(approvals), excludeRunStarter: exclude === "true", rejections: 1 };
  await db.escalation.update({ where: { id: escalationId }, data: { routedAt: new Date(), policy: { group: null, quorum, rule: "e2e quorum" } } });
} finally {
  await db.$disconnect();
}
