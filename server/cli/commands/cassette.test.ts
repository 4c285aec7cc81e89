import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRecordedRunFixture, type RecordedRunFixture } from "../testing/recorded-run-fixture";
import { parseCassette } from "../../generators/replay/cassette";
import { USAGE } from "../usage";

let fixture: RecordedRunFixture;
let folder: string;
let runId: string;
const cli = (...argv: string[]) => fixture.cli(...argv);

/** One recorded run on a real SQLite file: attempt 1 fails, attempt 2 passes. */
beforeAll(async () => {
  fixture = await createRecordedRunFixture("cassette");
  ({ folder, runId } = fixture);
});
afterAll(() => fixture.dispose());

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
