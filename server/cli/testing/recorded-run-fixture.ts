import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { always, executeWorkflow, failed, passed } from "../../engine";
import { ScriptedGenerator } from "../../engine/testing/scripted-generator";
import { guardFrom } from "../../engine/testing/scripted-guard";
import { createDb } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { PrismaRunRepository } from "../../persistence/prisma-run-repository";
import { main } from "../main";

export interface RecordedRunFixture {
  readonly folder: string;
  readonly runId: string;
  /** Runs `dualstate <command> ...argv` against the fixture's database, capturing its output. */
  cli(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
  dispose(): void;
}

/**
 * A real SQLite file holding one recorded run of a one-step workflow ("Implement LRU Cache"):
 * attempt 1 fails with "Missing get method", attempt 2 passes. For tests of the commands that
 * read a run back (cassette export, provenance export).
 */
export async function createRecordedRunFixture(command: string): Promise<RecordedRunFixture> {
  const folder = mkdtempSync(join(tmpdir(), `dualstate-${command}-cli-`));
  const databaseUrl = `file:${join(folder, "x.db")}`;
  await migrateDatabase(databaseUrl);
  const db = createDb(databaseUrl);
  let runId: string;
  try {
    const repository = new PrismaRunRepository(db);
    runId = (await repository.create({ specification: "Implement LRU Cache" })).id;
    const guard = guardFrom((artifact) => (artifact.content.includes("get") ? passed() : failed("Missing get method")));
    await executeWorkflow({
      specification: "Implement LRU Cache",
      steps: [{ name: "implement", guardId: "g_1", guardArtifactDeps: [], actionPair: { precondition: always, generator: new ScriptedGenerator(["class LRUCache: put", "class LRUCache: get"]), guard } }],
      dag: repository.dag(runId),
      observer: repository.observer(runId),
      calls: repository.calls(runId),
    });
  } finally {
    await db.$disconnect();
  }
  const env: Record<string, string> = { DATABASE_URL: databaseUrl };
  return {
    folder,
    runId,
    async cli(...argv) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main([command, ...argv], env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
      return { code, out: out.join(""), err: err.join("") };
    },
    dispose: () => rmSync(folder, { recursive: true, force: true }),
  };
}
