import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { always, executeWorkflow, failed, passed } from "@/server/engine";
import { ScriptedGenerator } from "@/server/engine/testing/scripted-generator";
import { guardFrom } from "@/server/engine/testing/scripted-guard";
import { createDb, type Db } from "@/server/persistence/db";
import { migrateDatabase } from "@/server/persistence/migrations/migrate";
import { PrismaRunRepository } from "@/server/persistence/prisma-run-repository";
import { exportProvenanceBundle, exportProvenanceRepository } from "./export-git";

// A real SQLite database and the real git binary: the TDD shape (tests, then an implementation
// that fails once against them), exported and read back with git itself.
const folder = mkdtempSync(join(tmpdir(), "dualstate-provenance-git-"));
let db: Db;
let runId: string;
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });

beforeAll(async () => {
  const databaseUrl = `file:${join(folder, "x.db")}`;
  await migrateDatabase(databaseUrl);
  db = createDb(databaseUrl);
  const repository = new PrismaRunRepository(db);
  runId = (await repository.create({ specification: "Implement an LRU cache" })).id;
  const implGuard = guardFrom((artifact, dependencies) => (dependencies.test && artifact.content.includes("get") ? passed() : failed("test_get failed: no get()")));
  await executeWorkflow({
    specification: "Implement an LRU cache",
    steps: [
      { name: "write_tests", guardId: "g_test", guardArtifactDeps: [], actionPair: { precondition: always, generator: new ScriptedGenerator(["def test_get(): ..."]), guard: guardFrom(() => passed()) } },
      { name: "implement", guardId: "g_impl", guardArtifactDeps: ["g_test"], actionPair: { precondition: always, generator: new ScriptedGenerator(["class LRUCache: put", "class LRUCache: get"]), guard: implGuard } },
    ],
    dag: repository.dag(runId),
    observer: repository.observer(runId),
    calls: repository.calls(runId),
  });
});
afterAll(async () => {
  await db?.$disconnect();
  rmSync(folder, { recursive: true, force: true });
});

describe("provenance as a git repository", () => {
  it("writes one commit per attempt, verdict in the subject, refinements as diffs of the step's file", async () => {
    const target = join(folder, "repo");
    expect(await exportProvenanceRepository(db, runId, target)).toEqual({ commits: 4 });
    expect(git(target, "log", "--reverse", "--format=%s").trim().split("\n")).toEqual([
      `run ${runId}: a deleted workflow`,
      "write_tests attempt 1: passed",
      "implement attempt 1: failed",
      "implement attempt 2: passed",
    ]);
    const last = git(target, "log", "-1", "--format=%B");
    expect(last).toMatch(/Refines: \S+/);
    expect(last).toMatch(/Depends-On: test=\S+/);
    expect(git(target, "log", "-1", "--format=%b", "HEAD~1")).toContain("test_get failed: no get()");
    const diff = git(target, "diff", "HEAD~1", "HEAD", "--", "implement.txt");
    expect(diff).toContain("-class LRUCache: put");
    expect(diff).toContain("+class LRUCache: get");
  });

  it("refuses a folder that is not empty, and an unknown run", async () => {
    const used = join(folder, "used");
    mkdirSync(used);
    writeFileSync(join(used, "keep.txt"), "mine");
    await expect(exportProvenanceRepository(db, runId, used)).rejects.toThrow(`folder: ${used} is not empty`);
    await expect(exportProvenanceRepository(db, "no-such-run", join(folder, "other"))).rejects.toThrow('Run "no-such-run" was not found');
  });

  it("bundles the same history into one file that git clones", async () => {
    const bundle = await exportProvenanceBundle(db, runId);
    writeFileSync(join(folder, "run.bundle"), bundle);
    git(folder, "clone", "--quiet", join(folder, "run.bundle"), join(folder, "clone"));
    expect(git(join(folder, "clone"), "rev-list", "--count", "HEAD").trim()).toBe("4");
  });
});
