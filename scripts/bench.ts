/**
 * npm run bench
 *
 * How much does the engine itself cost per transition, next to the database commit that
 * persisting a transition costs anyway? 001 says the engine is O(1) per transition and the
 * generator dominates; this checks that the engine is also small next to the *database*.
 *
 *   engine   executeWorkflow on a 10-step workflow with an instant generator and an always-pass
 *            guard, in-memory DAG, silent observer. One transition = one attempt: generate,
 *            validate, store in the DAG, advance the workflow state (plus the run's share of
 *            setup, events and result). Reported as mean µs per transition.
 *   Prisma   one Workflow row inserted with db.workflow.create (its own transaction), on a fresh,
 *            migrated SQLite file from createTestDatabase("sqlite"): the realistic commit path.
 *   raw      one row inserted with better-sqlite3 in an explicit BEGIN/COMMIT, WAL mode, with
 *            synchronous=NORMAL and with synchronous=FULL, for reference.
 *
 * Then the command's start: `dualstate --help` in a new process, next to a bare node start
 * (scripts/bench/cli-start.ts).
 *
 * Then the guards: the median time of a syntax, a security and a sandboxed test verdict on a
 * 200-line artifact, for each language (scripts/bench/guard-verdicts.ts).
 *
 * Then the durable engine (issue 6): BENCH_RUNS (default 1,000) runs of a two-step TDD workflow
 * executed by RunWorker against SQLite (synchronous FULL and NORMAL) and PostgreSQL (when
 * TEST_POSTGRES_URL is set): µs per transition next to the database's own durable commit, 1, 2
 * and 4 workers, and decision → next state, against the targets
 * (scripts/bench/engine-durable.ts).
 *
 * Then large graphs in the browser (issue 8): time to first render and frame times while panning
 * a 1,000-artifact provenance graph and a 200-state designer canvas, through Playwright against
 * the built dashboard (scripts/bench/ui-graphs.ts; BENCH_UI=0 leaves it out).
 *
 * Then experiments (issue 19): 200 cases × k=3 from a cassette on PostgreSQL with 1 and 4 workers,
 * wall time and cases per second (scripts/bench/experiments.ts).
 *
 * BENCH_ONLY=engine,cli,guards,durable,experiments,ui runs only the sections named (e.g. BENCH_ONLY=durable).
 *
 * Prints the timings and the ratios; there are no assertions.
 */
import { mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { always, executeWorkflow, passed, silentObserver, type Generator, type Guard, type WorkflowStep } from "../server/engine";
import { InMemoryArtifactDag } from "../server/engine/testing/in-memory-artifact-dag";
import { createTestDatabase } from "../server/persistence/testing/test-database";
import { benchCliStart } from "./bench/cli-start";
import { benchEngineDurable } from "./bench/engine-durable";
import { benchExperiments } from "./bench/experiments";
import { benchGuardVerdicts } from "./bench/guard-verdicts";
import { benchUiGraphs } from "./bench/ui-graphs";

const STEPS = 10;
/** Time budget of each measured phase (after its warm-up). */
const PHASE_MS = 2_500;

interface Measurement {
  readonly meanUs: number;
  readonly medianUs: number;
  readonly samples: number;
}

/** Runs `once` until the budget is spent; each sample is one call, `unitsPerCall` units long. */
async function measure(once: () => unknown | Promise<unknown>, options: { warmup: number; budgetMs: number; unitsPerCall?: number }): Promise<Measurement> {
  const units = options.unitsPerCall ?? 1;
  for (let i = 0; i < options.warmup; i++) await once();
  const durations: number[] = [];
  const deadline = performance.now() + options.budgetMs;
  while (performance.now() < deadline) {
    const start = performance.now();
    await once();
    durations.push((performance.now() - start) / units);
  }
  durations.sort((a, b) => a - b);
  const mean = durations.reduce((sum, d) => sum + d, 0) / durations.length;
  return { meanUs: mean * 1000, medianUs: (durations[Math.floor(durations.length / 2)] ?? 0) * 1000, samples: durations.length * units };
}

// ---------------------------------------------------------------- engine

const instantGenerator: Generator = { generate: async () => ({ content: "def solution():\n    return 42\n" }) };
const alwaysPass: Guard = { validate: async () => passed() };
const steps: WorkflowStep[] = Array.from({ length: STEPS }, (_, i) => ({
  name: `step-${i + 1}`,
  guardId: `g_${i + 1}`,
  actionPair: { precondition: always, generator: instantGenerator, guard: alwaysPass },
  // Every step after the first reads the previous step's artifact, as a TDD chain would.
  guardArtifactDeps: i === 0 ? [] : [`g_${i}`],
}));

async function runWorkflowOnce(): Promise<void> {
  const result = await executeWorkflow({ steps, specification: "Implement LRU Cache", dag: new InMemoryArtifactDag(), observer: silentObserver });
  if (result.status !== "success") throw new Error(`bench workflow did not succeed: ${result.status}`);
}

// ---------------------------------------------------------------- databases

async function measurePrisma(): Promise<{ measurement: Measurement; pragmas: string }> {
  const database = await createTestDatabase("sqlite");
  try {
    const { db } = database;
    const rows = await db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
    const sync = await db.$queryRawUnsafe<{ synchronous: number | bigint }[]>("PRAGMA synchronous");
    const pragmas = `journal_mode=${rows[0]?.journal_mode}, synchronous=${synchronousName(sync[0]?.synchronous)}`;
    let n = 0;
    const measurement = await measure(
      async () => {
        n += 1;
        await db.workflow.create({ data: { id: `wf-${n}`, name: `bench workflow ${n}` } });
      },
      { warmup: 200, budgetMs: PHASE_MS },
    );
    return { measurement, pragmas };
  } finally {
    await database.dispose();
  }
}

function synchronousName(value: number | bigint | undefined): string {
  return ["OFF", "NORMAL", "FULL", "EXTRA"][Number(value)] ?? String(value);
}

// ---------------------------------------------------------------- report

function fmt(us: number): string {
  return us < 10 ? us.toFixed(2) : us < 100 ? us.toFixed(1) : us.toFixed(0);
}

const SECTIONS = ["engine", "cli", "guards", "durable", "experiments", "ui"] as const;
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((name) => name.trim())) : undefined;
for (const name of only ?? []) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`BENCH_ONLY: unknown section "${name}" (known: ${SECTIONS.join(", ")})`);
const runs = (section: (typeof SECTIONS)[number]) => only === undefined || only.has(section);

async function main(): Promise<void> {
  const started = performance.now();
  let fsType = "";
  try {
    fsType = ` (filesystem type 0x${statfsSync(tmpdir()).type.toString(16)})`;
  } catch {
    // statfs is not available everywhere; the type is informational only.
  }
  console.log(`Dualstate bench: engine overhead per transition vs. one database commit`);
  console.log(`node ${process.version}, ${process.platform}/${process.arch}, temp folder ${tmpdir()}${fsType}\n`);
  if (runs("engine")) await benchEngineOverhead();
  if (runs("cli")) await benchCliStart();
  if (runs("guards")) await benchGuardVerdicts();
  if (runs("durable")) await benchEngineDurable();
  if (runs("experiments")) await benchExperiments();
  if (runs("ui")) await benchUiGraphs();
  console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

/** The engine alone next to a SQLite commit (the first section). */
async function benchEngineOverhead(): Promise<void> {
  console.log(`Measuring engine: ${STEPS}-step workflow, instant generator, always-pass guard, in-memory DAG, silent observer...`);
  const engine = await measure(runWorkflowOnce, { warmup: 2_000, budgetMs: PHASE_MS, unitsPerCall: STEPS });

  console.log(`Measuring Prisma: db.workflow.create on a fresh migrated SQLite file (createTestDatabase("sqlite"))...`);
  const prisma = await measurePrisma();

  console.log(`Measuring raw better-sqlite3: one INSERT per BEGIN/COMMIT, WAL...`);
  const raw: Record<"NORMAL" | "FULL", Measurement> = { NORMAL: await rawSqlite("NORMAL"), FULL: await rawSqlite("FULL") };

  const rows: [string, Measurement, string][] = [
    ["engine, per transition", engine, "generate + validate + store + advance"],
    ["Prisma SQLite commit", prisma.measurement, prisma.pragmas],
    ["raw SQLite commit", raw.NORMAL, "journal_mode=wal, synchronous=NORMAL"],
    ["raw SQLite commit", raw.FULL, "journal_mode=wal, synchronous=FULL"],
  ];
  console.log("");
  console.log(`${"what".padEnd(24)} ${"mean µs".padStart(9)} ${"median µs".padStart(10)} ${"samples".padStart(9)}   notes`);
  for (const [what, m, notes] of rows) {
    console.log(`${what.padEnd(24)} ${fmt(m.meanUs).padStart(9)} ${fmt(m.medianUs).padStart(10)} ${String(m.samples).padStart(9)}   ${notes}`);
  }

  const ratio = (denominator: Measurement) => (engine.meanUs / denominator.meanUs).toFixed(4);
  console.log("");
  console.log("engine overhead / DB commit (mean per transition / mean per commit; goal: well under 0.1):");
  console.log(`  vs Prisma SQLite commit             ${ratio(prisma.measurement)}`);
  console.log(`  vs raw SQLite commit (NORMAL)       ${ratio(raw.NORMAL)}`);
  console.log(`  vs raw SQLite commit (FULL)         ${ratio(raw.FULL)}`);
  console.log(`\nA persisted transition writes several ledger events, each its own commit, so the real share is smaller still.`);
}

async function rawSqlite(synchronous: "NORMAL" | "FULL"): Promise<Measurement> {
  const folder = mkdtempSync(join(tmpdir(), "dualstate-bench-"));
  const db = new Database(join(folder, "raw.db"));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${synchronous}`);
    db.exec(`CREATE TABLE "Workflow" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT NOT NULL UNIQUE, "description" TEXT NOT NULL DEFAULT '',
      "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" DATETIME NOT NULL)`);
    const insert = db.prepare(`INSERT INTO "Workflow" ("id", "name", "updatedAt") VALUES (?, ?, ?)`);
    const commitOne = db.transaction((n: number) => insert.run(`wf-${n}`, `bench workflow ${n}`, new Date().toISOString()));
    let n = 0;
    return await measure(() => commitOne(++n), { warmup: 500, budgetMs: PHASE_MS });
  } finally {
    db.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
