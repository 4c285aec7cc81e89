import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { validateWorkflowDocument, type WorkflowDefinition } from "../../workflows/definition";
import { isServiceError } from "../errors";
import { exportWorkflowDefinition } from "./export-definition";
import { saveWorkflowDefinition } from "./save-definition";

const folder = mkdtempSync(join(tmpdir(), "dualstate-save-definition-"));
let db: Db;

beforeAll(async () => {
  const url = `file:${join(folder, "x.db")}`;
  await migrateDatabase(url);
  db = createDb(url);
});
afterAll(async () => {
  await db.$disconnect();
  rmSync(folder, { recursive: true, force: true });
});

function fixture(name: string): { text: string; definition: WorkflowDefinition } {
  const path = fileURLToPath(new URL(`../../workflows/definition/fixtures/${name}`, import.meta.url));
  const text = readFileSync(path, "utf8");
  const result = validateWorkflowDocument(text, path);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return { text, definition: result.definition };
}

async function rejection(promise: Promise<unknown>) {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error;
}

describe("saveWorkflowDefinition", () => {
  it("creates the workflow with version 1, keeps an unchanged definition, and adds a version when it changes", async () => {
    const { definition } = fixture("tdd-lru-cache.yaml");
    const first = await saveWorkflowDefinition(db, definition);
    expect(first).toMatchObject({ version: 1, created: true });

    const again = await saveWorkflowDefinition(db, structuredClone(definition));
    expect(again).toEqual({ ...first, created: false });

    const changed = await saveWorkflowDefinition(db, { ...definition, default_max_retries: 5 });
    expect(changed).toMatchObject({ workflowId: first.workflowId, version: 2, created: true });
    expect(changed.versionId).not.toBe(first.versionId);

    // Earlier versions stay as they were (immutable) and viewable.
    const stored = await db.workflowVersion.findMany({ where: { workflowId: first.workflowId }, orderBy: { version: "asc" }, select: { version: true, definition: true } });
    expect(stored.map((row) => row.version)).toEqual([1, 2]);
    expect((stored[0]!.definition as { default_max_retries: number }).default_max_retries).toBe(3);
    expect((stored[1]!.definition as { default_max_retries: number }).default_max_retries).toBe(5);

    // Going back to the first definition is a change relative to the latest: version 3.
    expect(await saveWorkflowDefinition(db, definition)).toMatchObject({ version: 3, created: true });
  });
});

describe("exportWorkflowDefinition", () => {
  it("round-trips 004's machine YAML → validate → database → YAML → validate without loss", async () => {
    const { definition } = fixture("agent-loop.yaml");
    await saveWorkflowDefinition(db, definition);
    const yaml = await exportWorkflowDefinition(db, "agent-loop");
    expect(yaml.startsWith("workflow:\n  name: agent-loop\n")).toBe(true);
    const reread = validateWorkflowDocument(yaml, "agent-loop.yaml");
    if (!reread.ok) throw new Error(JSON.stringify(reread.problems));
    expect(reread.definition).toEqual(definition);
  });

  it("exports a given version, and names the workflow or the version when there is none", async () => {
    const { definition } = fixture("tdd-lru-cache.yaml");
    const v1 = validateWorkflowDocument(await exportWorkflowDefinition(db, definition.name, 1), "v1.yaml");
    const v2 = validateWorkflowDocument(await exportWorkflowDefinition(db, definition.name, 2), "v2.yaml");
    expect(v1.ok && v1.definition.default_max_retries).toBe(3);
    expect(v2.ok && v2.definition.default_max_retries).toBe(5);

    const missingWorkflow = await rejection(exportWorkflowDefinition(db, "no-such-workflow"));
    expect(missingWorkflow.code).toBe("NOT_FOUND");
    expect(missingWorkflow.message).toContain('"no-such-workflow"');
    const missingVersion = await rejection(exportWorkflowDefinition(db, definition.name, 9));
    expect(missingVersion.code).toBe("NOT_FOUND");
    expect(missingVersion.message).toBe('Version 9 of workflow "tdd-lru-cache" was not found');
  });
});
