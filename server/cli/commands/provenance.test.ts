import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRecordedRunFixture, type RecordedRunFixture } from "../testing/recorded-run-fixture";

let fixture: RecordedRunFixture;
let folder: string;
let runId: string;
const cli = (...argv: string[]) => fixture.cli(...argv);

/** One recorded run on a real SQLite file: attempt 1 fails, attempt 2 passes. */
beforeAll(async () => {
  fixture = await createRecordedRunFixture("provenance");
  ({ folder, runId } = fixture);
});
afterAll(() => fixture.dispose());

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
