import { describe, expect, it } from "vitest";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { createTestDatabase, testPostgresUrl, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { cheapWorkflow } from "../worker/testing/cheap-workflow";
import { DurableStore } from "./durable-store";
import { describeDurableStoreConformance } from "./testing/durable-store-conformance";

// The store production uses, on every database it supports (PostgreSQL when TEST_POSTGRES_URL is set).
for (const provider of TEST_PROVIDERS) {
  describeDurableStoreConformance(provider, async () => {
    const database = await createTestDatabase(provider);
    const store = new DurableStore(openSqlClient(database.url));
    const { versionId } = await saveWorkflowDefinition(database.db, cheapWorkflow());
    return {
      store,
      workflowVersionId: versionId,
      async dispose() {
        await store.close();
        await database.dispose();
      },
    };
  });
}

describe.runIf(Boolean(process.env.CI))("in CI", () => {
  it("runs the store's suites on PostgreSQL too: TEST_POSTGRES_URL is set", () => {
    expect(testPostgresUrl, "CI must set TEST_POSTGRES_URL so the durable store is certified on PostgreSQL").toBeTruthy();
  });
});
