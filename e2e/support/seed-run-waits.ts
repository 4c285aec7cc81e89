// Writes fixture rows for a run suspended on waiting tool calls into the e2e database, the way a
// worker's durable store would have left them, and prints their ids as JSON. Run by
// e2e/run-waits.spec.ts with `node --import tsx` (the app has no route that writes such rows
// without running a workflow that calls waiting tools).
import { createDb } from "@/server/persistence/db";
import { seedSuspendedFamily } from "@/server/services/runs/execution/testing/seed-suspended-run";

const url = process.env.DATABASE_URL;
if (!url?.startsWith("file:./data/e2e/")) throw new Error(`seed-run-waits: expected the e2e database's DATABASE_URL, got "${url}"`);
const db = createDb(url);
try {
  // An example loaded on the first start: the runs open on a real workflow version.
  const version = await db.workflowVersion.findFirstOrThrow({ where: { workflow: { name: "tdd-lru-cache" } }, orderBy: { version: "desc" }, select: { id: true } });
  const seeded = await seedSuspendedFamily(db, { workflowVersionId: version.id });
  process.stdout.write(JSON.stringify({ parentId: seeded.parentId, childId: seeded.childId, calls: seeded.calls }));
} finally {
  await db.$disconnect();
}
