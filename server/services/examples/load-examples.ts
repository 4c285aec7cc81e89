import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createDb, type Db } from "@/server/persistence/db";
import { projectRoot } from "@/server/persistence/project-root";
import { validateWorkflowDocument, workflowNameFromFile, type WorkflowDefinition } from "@/server/workflows/definition";
import { formatProblem } from "@/server/workflows/document";
import { saveWorkflowDefinition } from "../workflows/save-definition";

export interface ExampleWorkflow {
  /** The document, e.g. /…/examples/tdd-lru-cache.yaml. */
  readonly file: string;
  /** Its replay cassette beside it: examples/<name>.cassette.json. */
  readonly cassette: string;
  readonly definition: WorkflowDefinition;
}

export function examplesFolder(): string {
  return join(projectRoot(), "examples");
}

/**
 * The example workflows in examples/ (every *.yaml, in name order), validated.
 * @throws Error naming the file and its problems when an example does not validate (a bug).
 */
export function readExamples(folder: string = examplesFolder()): ExampleWorkflow[] {
  const files = readdirSync(folder)
    .filter((name) => name.endsWith(".yaml") || name.endsWith(".yml"))
    .sort();
  return files.map((name) => {
    const file = join(folder, name);
    const result = validateWorkflowDocument(readFileSync(file, "utf8"), file, { fallbackName: workflowNameFromFile(file) });
    if (!result.ok) throw new Error(`Example ${file} is not a valid workflow:\n${result.problems.map(formatProblem).join("\n")}`);
    return { file, cassette: join(folder, `${name.replace(/\.ya?ml$/, "")}.cassette.json`), definition: result.definition };
  });
}

/**
 * Saves every example workflow when the database has no workflows yet (first start). A database
 * with any workflow is left alone, so deleting or editing examples sticks; calling it again is a
 * no-op. Returns the names saved.
 */
export async function loadExamplesIntoEmptyDatabase(db: Db, folder: string = examplesFolder()): Promise<string[]> {
  if ((await db.workflow.count()) > 0) return [];
  const saved: string[] = [];
  for (const example of readExamples(folder)) {
    await saveWorkflowDefinition(db, example.definition);
    saved.push(example.definition.name);
  }
  return saved;
}

/**
 * For `dualstate start|dev`, right after migrating: loads the examples into an empty database at
 * `databaseUrl` and reports the names loaded (nothing when the database already had workflows).
 */
export async function loadExamplesOnFirstStart(databaseUrl: string, report: (text: string) => void): Promise<void> {
  const db = createDb(databaseUrl);
  try {
    const names = await loadExamplesIntoEmptyDatabase(db);
    if (names.length > 0) report(`Loaded ${names.length} example workflow(s): ${names.join(", ")}`);
  } finally {
    await db.$disconnect();
  }
}
