// Gives one run of the e2e database token usage and a cost, as the durable commit records them for
// a run whose model calls were priced (replayed calls cost nothing, so e2e runs have none).
// Run by e2e/insights.spec.ts: node --import tsx e2e/support/seed-run-cost.ts RUN_ID USD PROMPT COMPLETION
import { createDb } from "@/server/persistence/db";

const url = process.env.DATABASE_URL;
if (!url?.startsWith("file:./data/e2e/")) throw new Error(`seed-run-cost: expected the e2e database's DATABASE_URL, got "${url}"`);
const [runId, usd, prompt, completion] = process.argv.slice(2);
if (!runId || !usd || !prompt || !completion) throw new Error("usage: seed-run-cost.ts RUN_ID USD PROMPT_TOKENS COMPLETION_TOKENS");
const db = createDb(url);
try {
  await db.run.update({ where: { id: runId }, data: { costUsd: Number(usd), promptTokens: Number(prompt), completionTokens: Number(completion) } });
} finally {
  await db.$disconnect();
}
