import { createTestDatabase } from "../server/persistence/testing/test-database";
import { DurableStore } from "../server/durable/durable-store";
import { openSqlClient } from "../server/persistence/sql/open-sql-client";
import { saveWorkflowDefinition } from "../server/services/workflows/save-definition";
import { validateWorkflowDocument } from "../server/workflows/definition";
import { readFileSync } from "node:fs";
const provider = (process.argv[2] ?? "postgres") as "postgres" | "sqlite";
const db = await createTestDatabase(provider);
const yaml = readFileSync("scripts/bench/engine-durable.ts", "utf8").split("const WORKFLOW_YAML = `")[1]!.split("`;")[0]!.replaceAll("\\\\n", "\\n");
const def = validateWorkflowDocument(yaml, "b.yaml");
if (!def.ok) throw new Error(JSON.stringify(def.problems));
const { versionId } = await saveWorkflowDefinition(db.db, def.definition);
const store = new DurableStore(openSqlClient(db.url, { maxConnections: 3 }));
async function time(label: string, n: number, f: (i: number) => Promise<unknown>) {
  const d: number[] = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); await f(i); d.push(performance.now() - t); }
  d.sort((a, b) => a - b);
  console.log(label.padEnd(50), (d[Math.floor(n / 2)]! * 1000).toFixed(0), "µs median");
}
const runs: string[] = [];
for (let i = 0; i < 400; i++) runs.push((await store.enqueueRun({ workflowVersionId: versionId, specification: `s${i}` })).runId);
const turns: any[] = [];
await time("claim", 300, async () => turns.push(await store.claim("w", 60_000)));
const turn = turns[0];
let seq = 1000;
await time("select 1", 300, () => store.sql.query("SELECT 1"));
await time("commit head only (updatedAt)", 300, () => store.commit(turn, { ledger: [], artifacts: [], escalations: [], head: { currentStep: "x" } }));
await time("commit head + 1 ledger row", 300, () => store.commit(turn, { ledger: [{ seq: ++seq, actor: "a", type: "t", payload: { a: 1 }, callKey: null }], artifacts: [], escalations: [], head: { currentStep: "x" } }));
await time("commit head(status running) + 1 ledger", 300, () => store.commit(turn, { ledger: [{ seq: ++seq, actor: "a", type: "t", payload: { a: 1 }, callKey: null }], artifacts: [], escalations: [], head: { status: "running", workflowState: { s: seq } } }));
if (provider === "postgres") {
  for (const ix of ["Run_createdAt_idx", "Run_experimentId_idx", "Run_parentRunId_idx", "Run_workflowVersionId_createdAt_idx"]) await store.sql.execute(`DROP INDEX "${ix}"`);
  await time("[fewer Run idx] commit head + 1 ledger", 300, () => store.commit(turn, { ledger: [{ seq: ++seq, actor: "a", type: "t", payload: { a: 1 }, callKey: null }], artifacts: [], escalations: [], head: { currentStep: "y" } }));
  await time("[fewer Run idx] commit status + 1 ledger", 300, () => store.commit(turn, { ledger: [{ seq: ++seq, actor: "a", type: "t", payload: { a: 1 }, callKey: null }], artifacts: [], escalations: [], head: { status: "running", workflowState: { s: seq } } }));
}
await time("loadTurn", 300, (i) => store.loadTurn(runs[i]!));
await store.close();
await db.dispose();
