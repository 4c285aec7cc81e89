import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../server/cli/main";
import type { RunReport } from "../server/cli/commands/run";
import { attemptDelayMs, parseCassette } from "../server/generators/replay/cassette";
import { createDb, type Db } from "../server/persistence/db";
import { migrateDatabase } from "../server/persistence/migrations/migrate";
import { loadExamplesIntoEmptyDatabase, readExamples } from "../server/services/examples/load-examples";

const here = fileURLToPath(new URL(".", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "dualstate-examples-"));
const databaseUrl = `file:${join(folder, "x.db")}`;
const env: Record<string, string> = { DATABASE_URL: databaseUrl };
let db: Db;

beforeAll(async () => {
  await migrateDatabase(databaseUrl);
  db = createDb(databaseUrl);
});
afterAll(async () => {
  await db.$disconnect();
  rmSync(folder, { recursive: true, force: true });
});

/** What each example's description promises. */
const OUTCOMES = {
  "tdd-lru-cache": { exit: 0, status: "success", finalState: "done" },
  "prime-validator": { exit: 3, status: "failed", finalState: "implementing" },
  "sandbox-escalation": { exit: 4, status: "escalation", finalState: "scripting" },
  "agent-loop": { exit: 0, status: "success", finalState: "shipping" },
} as const;

describe("examples/", () => {
  it("holds the four examples, each valid, with a valid replay cassette beside it", () => {
    const examples = readExamples(here);
    expect(examples.map((example) => example.definition.name).sort()).toEqual(Object.keys(OUTCOMES).sort());
    for (const example of examples) {
      expect(basename(example.file)).toBe(`${example.definition.name}.yaml`);
      const cassette = parseCassette(JSON.parse(readFileSync(example.cassette, "utf8")));
      const generating = example.definition.steps.filter((step) => step.type !== "code").map((step) => step.name);
      for (const step of Object.keys(cassette.steps)) expect(generating).toContain(step);
      expect(example.definition.description).toBeTruthy();
    }
  });

  it("pauses a few seconds per model call, so a first run from the dashboard can be watched", () => {
    for (const example of readExamples(here)) {
      const cassette = parseCassette(JSON.parse(readFileSync(example.cassette, "utf8")));
      const delays = Object.values(cassette.steps).flat().map(attemptDelayMs);
      for (const delay of delays) expect(delay, example.definition.name).toBeGreaterThanOrEqual(1500);
      for (const delay of delays) expect(delay, example.definition.name).toBeLessThanOrEqual(5000);
      const total = delays.reduce((sum, delay) => sum + delay, 0);
      expect(total, example.definition.name).toBeGreaterThanOrEqual(8000);
      expect(total, example.definition.name).toBeLessThanOrEqual(20_000);
    }
  });

  it.each(Object.entries(OUTCOMES))("%s runs offline from the CLI with the promised outcome", async (name, outcome) => {
    const out: string[] = [];
    const err: string[] = [];
    const argv = ["run", join(here, `${name}.yaml`), "--generator", "replay", "--cassette", join(here, `${name}.cassette.json`), "--no-delay", "--json"];
    const code = await main(argv, env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
    expect(err.join("")).toBe("");
    expect(code).toBe(outcome.exit);
    const report = JSON.parse(out.join("")) as RunReport;
    expect(report).toMatchObject({ status: outcome.status, finalState: outcome.finalState });

    if (name === "tdd-lru-cache") expect(report.attempts.filter((a) => a.step === "implement").map((a) => a.passed)).toEqual([false, true]);
    if (name === "prime-validator") {
      expect(report.failedStep).toBe("implement");
      expect(report.attempts.map((a) => a.passed)).toEqual([false, false, false]);
    }
    if (name === "sandbox-escalation") {
      expect(report.escalation).toMatchObject({ step: "write_script" });
      expect(report.escalation?.feedback).toContain("os.system");
      expect(report.attempts).toEqual([expect.objectContaining({ step: "write_script", attempt: 1, passed: false, fatal: true })]);
    }
    if (name === "agent-loop") expect(Object.keys(report.artifacts).sort()).toEqual(["g_impl", "g_test"]);
  });
});

describe("loadExamplesIntoEmptyDatabase", () => {
  it("saves every example into an empty database, once", async () => {
    const empty = createDb(`file:${join(folder, "empty.db")}`);
    await migrateDatabase(`file:${join(folder, "empty.db")}`);
    try {
      expect((await loadExamplesIntoEmptyDatabase(empty, here)).sort()).toEqual(Object.keys(OUTCOMES).sort());
      expect(await loadExamplesIntoEmptyDatabase(empty, here)).toEqual([]);
      expect(await empty.workflow.count()).toBe(4);
      expect(await empty.workflowVersion.count()).toBe(4);
    } finally {
      await empty.$disconnect();
    }
  });

  it("leaves a database that already has workflows alone", async () => {
    // The CLI runs above stored the examples here already.
    const before = await db.workflowVersion.count();
    expect(await loadExamplesIntoEmptyDatabase(db, here)).toEqual([]);
    expect(await db.workflowVersion.count()).toBe(before);
  });
});
