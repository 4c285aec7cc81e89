import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { always, executeWorkflow, failed, passed } from "../../engine";
import { ScriptedGenerator } from "../../engine/testing/scripted-generator";
import { guardFrom } from "../../engine/testing/scripted-guard";
import { createDb } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { PrismaRunRepository } from "../../persistence/prisma-run-repository";
import { main } from "../main";

const folder = mkdtempSync(join(tmpdir(), "dualstate-provenance-cli-"));
const databaseUrl = `file:${join(folder, "x.db")}`;
const env: Record<string, string> = { DATABASE_URL: databaseUrl };
let runId: string;

/** One recorded run on a real SQLite file: attempt 1 fails, attempt 2 passes. */
beforeAll(async () => {
  await migrateDatabase(databaseUrl);
  const db = createDb(databaseUrl);
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
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["provenance", ...argv], env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join(""), err: err.join("") };
}

describe("dualstate provenance export", () => {
  it("--git DIR writes a repository with a commit per attempt", async () => {
    const target = join(folder, "repo");
    const { code, err } = await cli("export", runId, "--git", target);
    expect(code).toBe(0);
    expect(err).toBe(`Wrote the provenance of run ${runId} as a git repository in ${target} (3 commits)`);
    const subjects = execFileSync("git", ["log", "--reverse", "--format=%s"], { cwd: target, encoding: "utf8" }).trim().split("\n");
    expect(subjects.slice(1)).toEqual(["implement attempt 1: failed", "implement attempt 2: passed"]);
  });

  it("without --git prints PROV-JSON, or writes it with --output", async () => {
    const printed = await cli("export", runId);
    expect(printed.code).toBe(0);
    expect(Object.keys((JSON.parse(printed.out) as { entity: object }).entity)).toHaveLength(3);
    const file = join(folder, "run.prov.json");
    expect((await cli("export", runId, "--output", file)).code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(JSON.parse(printed.out));
  });

  it("an unknown run exits 1 naming it; a wrong command line exits 2", async () => {
    expect(await cli("export", "no-such-run", "--git", join(folder, "none"))).toMatchObject({ code: 1, err: expect.stringContaining('Run "no-such-run" was not found') });
    expect(await cli("export")).toMatchObject({ code: 2, err: expect.stringContaining("dualstate provenance export: expected <runId>") });
    expect(await cli("export", runId, "--git", "a", "--output", "b")).toMatchObject({ code: 2, err: expect.stringContaining("not both") });
  });
});
