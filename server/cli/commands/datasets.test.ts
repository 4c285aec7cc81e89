import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../persistence/db";
import { main } from "../main";

const folder = mkdtempSync(join(tmpdir(), "dualstate-datasets-cli-"));
const env: Record<string, string> = { DATABASE_URL: `file:${join(folder, "x.db")}` };
const example = (name: string) => fileURLToPath(new URL(`../../../examples/datasets/${name}`, import.meta.url));

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("dualstate datasets upload|list", () => {
  let db: Db;
  beforeAll(async () => {
    expect((await cli("db", "migrate")).code).toBe(0);
    db = createDb(env.DATABASE_URL as string);
  });
  afterAll(async () => {
    await db.$disconnect();
    rmSync(folder, { recursive: true, force: true });
  });

  it("uploads the example files as versions of one dataset and lists it", async () => {
    expect(await cli("datasets", "list")).toMatchObject({ code: 0, out: "No datasets yet: dualstate datasets upload FILE --name NAME" });
    const first = await cli("datasets", "upload", example("tdd-lru-cache.yaml"), "--name", "lru-cache", "--description", "LRU tasks", "--as", "ada@example.test");
    expect(first).toMatchObject({ code: 0, out: "lru-cache v1: 3 case(s) from tdd-lru-cache.yaml" });
    const second = await cli("datasets", "upload", example("lru-cache.csv"), "--name", "lru-cache");
    expect(second).toMatchObject({ code: 0, out: "lru-cache v2: 2 case(s) from lru-cache.csv" });
    expect((await cli("datasets", "list")).out).toBe("lru-cache\tv2\t2 case(s)\tLRU tasks");
    const listed = JSON.parse((await cli("datasets", "list", "--json")).out) as { name: string; latest: { version: number } }[];
    expect(listed.map((d) => [d.name, d.latest.version])).toEqual([["lru-cache", 2]]);
    const versions = await db.datasetVersion.findMany({ orderBy: { version: "asc" }, select: { createdBy: true, source: true } });
    expect(versions[0]).toEqual({ createdBy: "ada@example.test", source: "upload" });
    expect(versions[1]!.createdBy).toMatch(/^cli:/);
  });

  it("prints each mistake as FILE:LINE: field: message and stores nothing", async () => {
    const bad = join(folder, "bad.jsonl");
    writeFileSync(bad, '{"specification":"ok"}\n{"specification":"x","checks":{"tests":{"language":"ruby","code":"x"}}}\n');
    const result = await cli("datasets", "upload", bad, "--name", "bad");
    expect(result).toMatchObject({ code: 1, err: 'bad.jsonl:2: checks.tests.language: must be python or javascript, not "ruby"' });
    const json = await cli("datasets", "upload", bad, "--name", "bad", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toEqual({ ok: false, errors: [{ line: 2, field: "checks.tests.language", message: 'must be python or javascript, not "ruby"' }] });
    expect(await db.dataset.count({ where: { name: "bad" } })).toBe(0);
  });

  it("answers usage mistakes with exit 2", async () => {
    expect((await cli("datasets", "upload", example("lru-cache.csv"))).code).toBe(2);
    expect((await cli("datasets", "upload", join(folder, "missing.jsonl"), "--name", "x")).err).toMatch(/no such file/);
    expect((await cli("datasets", "frobnicate")).code).toBe(2);
    const badName = await cli("datasets", "upload", example("lru-cache.csv"), "--name", "../x");
    expect(badName).toMatchObject({ code: 1, err: expect.stringContaining("name: may use only") });
  });
});
