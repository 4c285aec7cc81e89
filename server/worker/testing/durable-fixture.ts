import { readFileSync } from "node:fs";
import { parseCassette, withoutDelays } from "../../generators/replay/cassette";
import { createTestDatabase, type TestDatabase } from "../../persistence/testing/test-database";
import { openSqlClient } from "../../persistence/sql/open-sql-client";
import { DurableStore } from "../../durable/durable-store";
import { saveWorkflowDefinition } from "../../services/workflows/save-definition";
import { readExamples } from "../../services/examples/load-examples";
import type { DatabaseProvider } from "../../persistence/schema/provider-schema";

/** A migrated test database with the example workflows saved, and a run store over it. */
export interface DurableFixture {
  readonly database: TestDatabase;
  readonly store: DurableStore;
  /** Version id of each example by workflow name. */
  readonly versions: Record<string, string>;
  /** The example's replay cassette, inline and without its pauses, as a run's generator override. */
  replay(name: string): { kind: "replay"; cassette: Record<string, unknown> };
  dispose(): Promise<void>;
}

export async function createDurableFixture(provider: DatabaseProvider): Promise<DurableFixture> {
  const database = await createTestDatabase(provider);
  const versions: Record<string, string> = {};
  const cassettes: Record<string, Record<string, unknown>> = {};
  for (const example of readExamples()) {
    versions[example.definition.name] = (await saveWorkflowDefinition(database.db, example.definition)).versionId;
    cassettes[example.definition.name] = withoutDelays(parseCassette(JSON.parse(readFileSync(example.cassette, "utf8"))));
  }
  const store = new DurableStore(openSqlClient(database.url));
  return {
    database,
    store,
    versions,
    replay: (name) => ({ kind: "replay", cassette: cassettes[name] as Record<string, unknown> }),
    async dispose() {
      await store.close();
      await database.dispose();
    },
  };
}
