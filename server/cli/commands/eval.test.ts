import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../env";
import { createDb, type Db } from "../../persistence/db";
import { ADD_WORKFLOW, addCassette, testsExpecting } from "../../services/experiments/testing/experiment-fixture";
import { main } from "../main";
import { evalCommand, EVAL_EXIT } from "./eval";

const folder = mkdtempSync(join(tmpdir(), "dualstate-eval-cli-"));
const databaseUrl = `file:${join(folder, "eval.db")}`;
const env: Record<string, string> = { DATABASE_URL: databaseUrl };
const file = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};
const WORKFLOW = file("exp-add.yaml", ADD_WORKFLOW);
const CASSETTE = file("adds.cassette.json", addCassette());
const SUBTRACTS = file("subtracts.cassette.json", JSON.stringify({ format: "dualstate-cassette/1", steps: { implement: ["function add(a, b) { return a - b; }", "function add(a, b) { return a - b; }"] } }));
const DATASET = file(
  "adders.jsonl",
  [
    { key: "plain", specification: "Write add(a, b)" },
    { key: "tested", specification: "Write add(a, b), tested", checks: testsExpecting(5), variables: { flavour: "tested" } },
    { key: "impossible", specification: "Write add(a, b), impossibly", checks: testsExpecting(6) },
  ]
    .map((record) => JSON.stringify(record))
    .join("\n"),
);
let db: Db;

beforeAll(() => {
  db = createDb(databaseUrl);
});
afterAll(async () => {
  await db.$disconnect();
  rmSync(folder, { recursive: true, force: true });
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["eval", ...argv], env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("dualstate eval", () => {
  let firstExperiment: string;

  it("stores the workflow and the dataset file, runs every case k times from the cassette, and prints the results as JSON", async () => {
    const { code, out, err } = await cli(WORKFLOW, "--dataset", DATASET, "--k", "2", "--concurrency", "3", "--cassette", CASSETTE, "--no-delay", "--fail-under", "0.5", "--json");
    expect(err).toContain('Stored ' + DATASET + ' as dataset "adders" v1');
    expect(code, err).toBe(EVAL_EXIT.passed);
    const report = JSON.parse(out);
    firstExperiment = report.experimentId;
    expect(report).toMatchObject({ status: "completed", k: 2, dataset: { name: "adders", version: 1 }, passed: true, failUnder: 0.5 });
    expect(report.summary.passRate).toBeCloseTo(4 / 6, 12);
    expect(report.cases.map((row: { key: string; outcome: string }) => [row.key, row.outcome])).toEqual([
      ["plain", "passed"],
      ["tested", "passed"],
      ["impossible", "failed"],
    ]);
    expect(await db.run.count({ where: { experimentId: report.experimentId } })).toBe(6);
  }, 60_000);

  it("fails the build below --fail-under (exit 3), reusing the stored dataset version for the same file", async () => {
    const { code, out, err } = await cli("exp-add", "--dataset", DATASET, "--cassette", CASSETTE, "--no-delay", "--fail-under", "80%");
    expect(err).not.toContain("Stored");
    expect(code).toBe(EVAL_EXIT.belowThreshold);
    expect(out).toContain("pass rate 66.7% (2/3)");
    expect(out).toContain("FAILED: pass rate 66.7% is below --fail-under 80.0%");
    expect(out).toContain("case impossible: failed (0/1 passed)");
    expect(await db.datasetVersion.count()).toBe(1);
  }, 60_000);

  it("fails the build on a regression against --baseline (exit 4), naming the newly failing case", async () => {
    const { code, out } = await cli("exp-add", "--dataset", "adders", "--cassette", SUBTRACTS, "--no-delay", "--baseline", firstExperiment, "--json");
    expect(code).toBe(EVAL_EXIT.regression);
    const report = JSON.parse(out);
    expect(report.comparison.regression).toBe(true);
    expect(report.comparison.changedCases).toEqual([{ key: "tested", change: "newly_failing" }]);
    expect(report.reasons.join("\n")).toMatch(/passed in the baseline and fail now: tested/);
  }, 60_000);

  it("shows progress as plain lines when not on a terminal, and as a bar redrawn in place on one", async () => {
    for (const tty of [false, true]) {
      const written: string[] = [];
      const code = await evalCommand(["exp-add", "--dataset", "adders", "--cassette", CASSETTE, "--no-delay"], parseEnv(env as NodeJS.ProcessEnv), { out: () => {}, err: () => {} }, { tty, write: (text) => void written.push(text) });
      expect(code).toBe(EVAL_EXIT.passed);
      const text = written.join("");
      if (tty) {
        expect(text).toMatch(/\r\[#{30}\] 3\/3 samples ended\n$/);
      } else {
        expect(text.endsWith("progress: 3/3 samples ended\n")).toBe(true);
        expect(text).not.toContain("\r");
      }
    }
  }, 60_000);

  it("names what is wrong with bad input (exit 2): a dataset line, an unknown name, a bad rate", async () => {
    const broken = file("broken.jsonl", `{"specification": "ok"}\n{"specificaton": "typo"}`);
    const badFile = await cli("exp-add", "--dataset", broken);
    expect(badFile.code).toBe(EVAL_EXIT.badInput);
    expect(badFile.err).toContain(`${broken}:2: specificaton: is not a case field`);
    const unknown = await cli("exp-add", "--dataset", "no-such-dataset");
    expect(unknown.err).toContain('--dataset "no-such-dataset": no such file, and no stored dataset has that name');
    const rate = await cli("exp-add", "--dataset", "adders", "--fail-under", "1.5");
    expect(rate.code).toBe(EVAL_EXIT.badInput);
    expect(rate.err).toContain('--fail-under: "1.5" is not a pass rate');
    const missing = await cli("exp-add");
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--dataset FILE|NAME is required");
  }, 60_000);
});
