import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { saveWorkflowDefinition } from "../../services/workflows/save-definition";
import { validateWorkflowDocument } from "../../workflows/definition";
import { main } from "../main";
import { USAGE } from "../usage";

const folder = mkdtempSync(join(tmpdir(), "dualstate-export-cli-"));
const databaseUrl = `file:${join(folder, "x.db")}`;
const env: Record<string, string> = { DATABASE_URL: databaseUrl };
const fixturePath = fileURLToPath(new URL("../../workflows/definition/fixtures/agent-loop.yaml", import.meta.url));
const parsed = validateWorkflowDocument(readFileSync(fixturePath, "utf8"), fixturePath);
if (!parsed.ok) throw new Error("fixture invalid");
const definition = parsed.definition;

beforeAll(async () => {
  await migrateDatabase(databaseUrl);
  const db = createDb(databaseUrl);
  try {
    await saveWorkflowDefinition(db, definition);
    await saveWorkflowDefinition(db, { ...definition, description: "second version" });
  } finally {
    await db.$disconnect();
  }
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["export", ...argv], env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join(""), err: err.join("") };
}

describe("dualstate export", () => {
  it("prints the latest version as YAML that validates to the same definition", async () => {
    const { code, out, err } = await cli("agent-loop");
    expect(err).toBe("");
    expect(code).toBe(0);
    const reread = validateWorkflowDocument(out, "export.yaml");
    expect(reread.ok && reread.definition).toEqual({ ...definition, description: "second version" });
  });

  it("--version N prints that version", async () => {
    const { code, out } = await cli("agent-loop", "--version", "1");
    expect(code).toBe(0);
    const reread = validateWorkflowDocument(out, "export.yaml");
    expect(reread.ok && reread.definition).toEqual(definition);
  });

  it("exits 1 naming an unknown workflow or version", async () => {
    expect(await cli("nope")).toEqual({ code: 1, out: "", err: 'dualstate export: Workflow "nope" was not found' });
    expect(await cli("agent-loop", "--version", "7")).toEqual({ code: 1, out: "", err: 'dualstate export: Version 7 of workflow "agent-loop" was not found' });
  });

  it.each([
    [[], "dualstate export: expected <workflow name>"],
    [["a", "b"], 'dualstate export: unexpected argument "b"'],
    [["a", "--version", "x"], 'dualstate export: --version: "x" is not a version number (1, 2, ...)'],
    [["a", "--version", "0"], 'dualstate export: --version: "0" is not a version number (1, 2, ...)'],
    [["a", "--bogus"], "dualstate export: Unknown option '--bogus'"],
  ])("exits 2 with usage for %j", async (argv, message) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err.startsWith(message)).toBe(true);
    expect(err).toContain(USAGE);
  });
});
