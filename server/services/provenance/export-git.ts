import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "@/server/persistence/db";
import { invalidInput } from "../errors";
import { ExportBudget, limitsOf, type ExportOptions } from "./export-limits";
import { loadProvenance } from "./get-provenance";
import { planProvenanceCommits } from "./provenance-commits";
import { bundleGitRepository, writeGitRepository } from "./git-repository";

async function plannedCommits(db: Db, runId: string, budget: ExportBudget) {
  const { run, artifacts, dependencies, escalations } = await loadProvenance(db, runId, budget);
  return planProvenanceCommits(
    { id: run.id, workflow: run.workflowVersion?.workflow.name ?? null, version: run.workflowVersion?.version ?? null, specification: run.specification, createdAt: run.createdAt },
    { artifacts, dependencies, escalations },
  );
}

/**
 * Writes a run's provenance as a git repository into `folder` (created if missing; it must be
 * empty): one commit per attempt with its verdict in the message.
 * @throws ServiceError NOT_FOUND for an unknown run, INVALID_INPUT for a folder that is not empty;
 * GitUnavailableError without a git binary.
 */
export async function exportProvenanceRepository(db: Db, runId: string, folder: string, options: ExportOptions = {}): Promise<{ commits: number }> {
  let existing: string[] = [];
  try {
    existing = readdirSync(folder);
  } catch {
    // Missing: writeGitRepository creates it.
  }
  if (existing.length > 0) throw invalidInput("folder", `${folder} is not empty; give a new or empty folder for the repository`);
  const budget = new ExportBudget(limitsOf(options), options.signal);
  const commits = await plannedCommits(db, runId, budget);
  await writeGitRepository(folder, commits, budget);
  return { commits: commits.length };
}

/**
 * The same repository as one git bundle file's bytes, for a download; built in a temporary folder
 * (under `scratchRoot`, the system's by default) removed afterwards, also when the export stops.
 */
export async function exportProvenanceBundle(db: Db, runId: string, options: ExportOptions & { scratchRoot?: string } = {}): Promise<Buffer> {
  const budget = new ExportBudget(limitsOf(options), options.signal);
  const commits = await plannedCommits(db, runId, budget);
  const scratch = mkdtempSync(join(options.scratchRoot ?? tmpdir(), "dualstate-provenance-"));
  try {
    await writeGitRepository(join(scratch, "repository"), commits, budget);
    await bundleGitRepository(join(scratch, "repository"), join(scratch, "run.bundle"), budget);
    return readFileSync(join(scratch, "run.bundle"));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
