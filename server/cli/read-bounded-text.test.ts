import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "./main";
import { MAX_CLI_FILE_BYTES } from "./read-bounded-text";

const folder = mkdtempSync(join(tmpdir(), "dualstate-bounded-read-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A sparse file one byte over the limit: large on paper, instant to make. */
function oversizedFile(name: string): string {
  const path = join(folder, name);
  const fd = openSync(path, "w");
  ftruncateSync(fd, MAX_CLI_FILE_BYTES + 1);
  closeSync(fd);
  return path;
}

async function cli(argv: string[]) {
  const err: string[] = [];
  const env: Record<string, string> = { DATABASE_URL: `file:${join(folder, "unused.db")}` };
  const code = await main(argv, env as NodeJS.ProcessEnv, { out: () => undefined, err: (text) => void err.push(text) });
  return { code, err: err.join("") };
}

// Before, each of these read the whole file into memory: /dev/zero never ended.
describe("files named on the command line are read only up to a limit", () => {
  it("validate refuses a file over the limit, and /dev/zero, naming the limit", async () => {
    for (const path of [oversizedFile("huge.yaml"), "/dev/zero"]) {
      const { code, err } = await cli(["validate", path]);
      expect(code).toBe(2);
      expect(err).toBe(`dualstate validate: cannot read ${path}: is larger than 16 MiB`);
    }
  });

  it("guard refuses an artifact over the limit", async () => {
    for (const path of [oversizedFile("huge.js"), "/dev/zero"]) {
      const { code, err } = await cli(["guard", "syntax", path, "--language", "js"]);
      expect(code).toBe(2);
      expect(err).toContain(`dualstate guard: cannot read artifact "${path}": is larger than 16 MiB`);
    }
  });

  it("eval refuses a workflow document over the limit", async () => {
    const path = oversizedFile("huge-eval.yaml");
    const { code, err } = await cli(["eval", path, "--dataset", "cases"]);
    expect(code).toBe(2);
    expect(err).toBe(`dualstate eval: <workflow> ${path}: is larger than 16 MiB`);
  });

  it("run refuses a document over the limit", async () => {
    for (const path of [oversizedFile("huge-run.yaml"), "/dev/zero"]) {
      const { code, err } = await cli(["run", path]);
      expect(code).toBe(2);
      expect(err).toContain(`cannot read ${path}: is larger than 16 MiB`);
    }
  });
});
