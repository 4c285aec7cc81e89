import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { always, executeWorkflow, failed, passed } from "../../engine";
import { ScriptedGenerator } from "../../engine/testing/scripted-generator";
import { guardFrom } from "../../engine/testing/scripted-guard";
import { parseCassette } from "../../generators/replay/cassette";
import { createDb } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { PrismaRunRepository } from "../../persistence/prisma-run-repository";
import { main } from "../main";
import { USAGE } from "../usage";

const folder = mkdtempSync(join(tmpdir(), "dualstate-cassette-cli-"));
const databaseUrl = `file:${join(folder, "x.db")}`;
const env: Record<string, string> = { DATABASE_URL: databaseUrl };
let runId: string;

/** One recorded run: attempt 1 fails, attempt 2 passes. */
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
  const code = await main(["cassette", ...argv], env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join(""), err: err.join("") };
}

describe("dualstate cassette export", () => {
  it("prints the run's cassette as pretty JSON on stdout", async () => {
    const { code, out, err } = await cli("export", runId);
    expect(err).toBe("");
    expect(code).toBe(0);
    const cassette = parseCassette(JSON.parse(out));
    expect(cassette.steps).toEqual({ implement: ["class LRUCache: put", "class LRUCache: get"] });
    expect(cassette).toMatchObject({ format: "dualstate-cassette/1", run: { runId, status: "succeeded", specification: "Implement LRU Cache" } });
    expect(out).toBe(`${JSON.stringify(cassette, null, 2)}\n`);
  });

  it.each([["--output"], ["-o"]])("%s FILE writes the cassette there and keeps stdout empty", async (flag) => {
    const path = join(folder, `cassette${flag}.json`);
    const { code, out, err } = await cli("export", runId, flag, path);
    expect(code).toBe(0);
    expect(out).toBe("");
    expect(err).toContain(`to ${path}`);
    expect(parseCassette(JSON.parse(readFileSync(path, "utf8"))).steps.implement).toHaveLength(2);
  });

  it("an unknown run exits 1 with a message naming the id", async () => {
    const { code, out, err } = await cli("export", "no-such-run");
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toContain('Run "no-such-run" was not found');
    expect(err).not.toContain(USAGE);
  });

  it.each([
    [["export"], "dualstate cassette export: expected <runId>"],
    [[], "dualstate cassette: missing subcommand (export)"],
    [["import", "x"], 'dualstate cassette: unknown subcommand "import"'],
    [["export", "a", "b"], 'dualstate cassette export: unexpected argument "b"'],
    [["export", "a", "--format", "yaml"], "dualstate cassette export: Unknown option '--format'"],
    [["export", "a", "--output"], "dualstate cassette export: Option '-o, --output <value>' argument missing"],
  ])("%j is a usage error (exit 2)", async (argv, message) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain(message);
    expect(err).toContain(USAGE);
  });

  it("is listed in the usage", async () => {
    expect(USAGE).toContain("cassette export <runId> [--output FILE]");
    const { code, out } = await cli("export", "--help");
    expect(code).toBe(0);
    expect(out).toContain("cassette export");
  });
});
