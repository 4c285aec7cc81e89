import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/server/persistence/db";
import { migrateDatabase } from "@/server/persistence/migrations/migrate";
import { PrismaRunRepository } from "@/server/persistence/prisma-run-repository";
import { exportProvenanceBundle, exportProvenanceRepository } from "./export-git";
import { exportProvJson, getProvenance } from "./get-provenance";

// A real SQLite database and the real git binary.
const folder = mkdtempSync(join(tmpdir(), "dualstate-export-limits-"));
let db: Db;
let bigRun: string;
const ATTEMPTS = 120;

async function runWith(attempts: number, contentOf: (index: number) => string): Promise<string> {
  const runId = (await new PrismaRunRepository(db).create({ specification: "limits" })).id;
  await db.artifact.createMany({
    data: Array.from({ length: attempts }, (_, index) => ({
      id: `${runId}-a${index}`,
      runId,
      stepName: "implement",
      guardId: "g",
      attempt: index + 1,
      content: contentOf(index),
      contentHash: String(index),
      passed: false,
      fatal: false,
      feedback: "",
      createdAt: new Date(1_700_000_000_000 + index * 1000),
    })),
  });
  return runId;
}

/** git processes whose working directory is under `root` (the export's scratch folder). */
function gitProcessesUnder(root: string): number {
  const out = execFileSync("sh", ["-c", `for p in /proc/[0-9]*; do c=$(readlink $p/cwd 2>/dev/null) || continue; case "$c" in ${root}*) cat $p/comm;; esac; done`], { encoding: "utf8" });
  return out.split("\n").filter((name) => name.startsWith("git")).length;
}

beforeAll(async () => {
  const databaseUrl = `file:${join(folder, "x.db")}`;
  await migrateDatabase(databaseUrl);
  db = createDb(databaseUrl);
  bigRun = await runWith(ATTEMPTS, (index) => `attempt ${index}\n`.repeat(50));
});
afterAll(async () => {
  await db?.$disconnect();
  rmSync(folder, { recursive: true, force: true });
});

describe("provenance exports are bounded and stop when their caller leaves", () => {
  it("a run with more attempts than the limit is refused before any content is read or git runs, naming the limit", async () => {
    const limits = { maxArtifacts: 100 };
    const message = `run ${bigRun} has ${ATTEMPTS} attempts; an export holds at most 100`;
    await expect(exportProvJson(db, bigRun, { limits })).rejects.toMatchObject({ name: "ExportLimitError", limit: "artifacts", message });
    await expect(exportProvenanceBundle(db, bigRun, { limits })).rejects.toMatchObject({ limit: "artifacts" });
    await expect(exportProvenanceRepository(db, bigRun, join(folder, "refused"), { limits })).rejects.toMatchObject({ limit: "artifacts" });
  });

  it("artifact text over the byte limit is refused, naming it; within both limits the export is whole", async () => {
    const heavy = await runWith(3, () => "x".repeat(400 * 1024));
    await expect(exportProvJson(db, heavy, { limits: { maxContentBytes: 1024 * 1024 } })).rejects.toMatchObject({ limit: "bytes", message: `run ${heavy}'s artifacts exceed 1 MiB; an export holds at most that much` });
    const document = await exportProvJson(db, heavy, { limits: { maxContentBytes: 2 * 1024 * 1024 } });
    expect(Object.keys(document.entity).filter((key) => key.includes("artifact"))).toHaveLength(3);
    expect((await getProvenance(db, heavy)).graph.nodes.length).toBeGreaterThan(0);
  });

  it("the time limit stops git mid-way with an error that says so", async () => {
    const scratchRoot = mkdtempSync(join(folder, "timed-"));
    await expect(exportProvenanceBundle(db, bigRun, { limits: { timeLimitMs: 300 }, scratchRoot })).rejects.toMatchObject({ name: "ExportLimitError", limit: "time", message: "the export took longer than 300 ms and was stopped" });
    expect(readdirSync(scratchRoot)).toEqual([]);
  });

  it("an export aborted mid-way (the client left) stops promptly: its git process is killed, its scratch folder removed", async () => {
    const scratchRoot = mkdtempSync(join(folder, "aborted-"));
    const controller = new AbortController();
    const started = Date.now();
    const exporting = exportProvenanceBundle(db, bigRun, { signal: controller.signal, scratchRoot });
    // Abort once git has started committing (the scratch repository exists and has objects).
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const [scratch] = readdirSync(scratchRoot);
      if (scratch && readdirSync(join(scratchRoot, scratch)).includes("repository")) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    controller.abort();
    await expect(exporting).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(gitProcessesUnder(scratchRoot)).toBe(0);
    expect(readdirSync(scratchRoot)).toEqual([]);
  });

  it("an export already aborted does no work at all", async () => {
    await expect(exportProvJson(db, bigRun, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });
});
