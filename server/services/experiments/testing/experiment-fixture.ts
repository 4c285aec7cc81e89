import { randomUUID } from "node:crypto";
import type { Db } from "@/server/persistence/db";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import { saveWorkflowDefinition } from "../../workflows/save-definition";

/**
 * A JavaScript workflow for experiment tests: one guarded step with a syntax guard, one retry.
 * Its cassette's first attempt subtracts and its second adds, so a case without checks passes
 * first time, a case whose tests expect add(2, 3) = 5 passes on the retry, and a case whose
 * tests expect 6 fails.
 */
export const ADD_WORKFLOW = `
name: exp-add
specification: Write add(a, b)
language: javascript
context: { flavour: plain }
state_machine:
  states: [writing, done]
  initial_state: writing
  final_states: [done]
  transitions:
    - { from: writing, to: done, condition: g_add }
steps:
  - name: implement
    in_state: writing
    guard_id: g_add
    generator: { kind: llm }
    prompt: "{specification} ({flavour})"
    guards: [{ kind: syntax }]
    max_retries: 1
    on_failure: fail
`;

export function addCassette(delayMs = 0): string {
  const entry = (content: string) => (delayMs > 0 ? { content, delay_ms: delayMs } : content);
  return JSON.stringify({ format: "dualstate-cassette/1", steps: { implement: [entry("function add(a, b) { return a - b; }"), entry("function add(a, b) { return a + b; }")] } });
}

export const testsExpecting = (sum: number) => ({ tests: { language: "javascript", code: `test("adds", () => { expect(add(2, 3)).toBe(${sum}); });` } });

export interface FixtureCase {
  readonly key: string;
  readonly specification?: string;
  readonly variables?: Record<string, string | number | boolean>;
  readonly checks?: unknown;
}

/** Saves the workflow (a new version each time its text changes) and returns its id and version. */
export async function saveAddWorkflow(db: Db, document = ADD_WORKFLOW): Promise<{ workflowId: string; version: number; versionId: string }> {
  const validated = validateWorkflowDocument(document, "exp-add.yaml");
  if (!validated.ok) throw new Error(validated.problems.map((problem) => problem.message).join("\n"));
  const saved = await saveWorkflowDefinition(db, validated.definition);
  return { workflowId: saved.workflowId, version: saved.version, versionId: saved.versionId };
}

/** A dataset version written directly (the datasets service is another part's), with its cases in order. */
export async function insertDataset(db: Db, name: string, cases: readonly FixtureCase[], version = 1): Promise<{ datasetId: string; versionId: string }> {
  const dataset = await db.dataset.upsert({ where: { name }, create: { id: randomUUID(), name }, update: {} });
  const versionId = randomUUID();
  await db.datasetVersion.create({ data: { id: versionId, datasetId: dataset.id, version, source: "upload", createdBy: "test@example.com" } });
  await db.datasetCase.createMany({
    data: cases.map((item, position) => ({
      id: randomUUID(),
      datasetVersionId: versionId,
      position,
      key: item.key,
      specification: item.specification ?? `Write add(a, b) for ${item.key}`,
      variables: item.variables ?? undefined,
      checks: (item.checks as object | undefined) ?? undefined,
    })),
  });
  return { datasetId: dataset.id, versionId };
}
