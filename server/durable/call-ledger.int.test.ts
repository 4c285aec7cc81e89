import { describeCallLedgerConformance } from "../engine/testing/call-ledger-conformance";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { createTestDatabase, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { cheapWorkflow } from "../worker/testing/cheap-workflow";
import { DurableStore } from "./durable-store";
import { TurnJournal } from "./turn-journal";

// The engine's CallLedger contract, certified on the ledger production writes through: a turn's
// journal over the durable store, on every database it supports.
for (const provider of TEST_PROVIDERS) {
  describeCallLedgerConformance(`turn journal + durable store on ${provider}`, async () => {
    const database = await createTestDatabase(provider);
    const store = new DurableStore(openSqlClient(database.url));
    const { versionId } = await saveWorkflowDefinition(database.db, cheapWorkflow());
    return {
      async open() {
        const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "spec" });
        const turn = await store.claim("w-ledger", 60_000, runId);
        if (!turn) throw new Error("the queued run was not claimable");
        const journalOf = async () => new TurnJournal(store, turn, await store.loadTurn(runId));
        let latest = await journalOf();
        let reopened: Promise<TurnJournal> | undefined;
        return {
          // After a reopen the crashed journal is gone: the run's ledger is the restarted worker's.
          ledger: {
            call: async (key, request, perform) => {
              await reopened;
              return latest.calls.call(key, request, perform);
            },
            note: async (key, actor, text) => {
              await reopened;
              return latest.calls.note(key, actor, text);
            },
          },
          // A worker restarted after a crash: a new journal over what was committed; whatever the old one
          // still buffered is lost, as in a crash.
          reopen() {
            const next = journalOf().then((journal) => (latest = journal));
            reopened = next;
            return {
              call: async (key, request, perform) => (await next).calls.call(key, request, perform),
              note: async (key, actor, text) => (await next).calls.note(key, actor, text),
            };
          },
          async steps() {
            await reopened;
            await latest.flush();
            const rows = await store.sql.query<{ actor: string; type: string; payload: unknown }>(`SELECT "actor", "type", "payload" FROM "LedgerEntry" WHERE "runId" = ? ORDER BY "seq"`, [runId]);
            return rows.map((row) => ({ actor: row.actor, type: row.type, payload: store.sql.dialect.readJson(row.payload) }));
          },
        };
      },
      async dispose() {
        await store.close();
        await database.dispose();
      },
    };
  });
}
