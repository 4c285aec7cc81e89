import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";
import { ExportBudget, ExportLimitError, limitsOf, type ExportOptions } from "./export-limits";
import { buildProvenanceGraph, type ProvenanceArtifact, type ProvenanceDependency, type ProvenanceEscalation } from "./provenance-graph";
import { toProvJson } from "./prov-json";
import { loadExecutionGraph } from "./execution-provenance";

const ARTIFACT_PAGE = 100;

/**
 * A run's artifacts (with their content), in pages, stopping at the budget's limits on count,
 * bytes and time, and as soon as its signal aborts.
 */
async function loadArtifacts(db: Db, runId: string, budget: ExportBudget) {
  const { maxArtifacts, maxContentBytes } = budget.limits;
  const count = await db.artifact.count({ where: { runId } });
  if (count > maxArtifacts) throw new ExportLimitError("artifacts", `run ${runId} has ${count} attempts; an export holds at most ${maxArtifacts}`);
  const artifacts = [];
  let bytes = 0;
  for (let skip = 0; skip < count; skip += ARTIFACT_PAGE) {
    budget.check();
    const page = await db.artifact.findMany({ where: { runId }, orderBy: [{ createdAt: "asc" }, { attempt: "asc" }, { id: "asc" }], skip, take: ARTIFACT_PAGE });
    for (const artifact of page) {
      bytes += Buffer.byteLength(artifact.content) + Buffer.byteLength(artifact.feedback);
      if (bytes > maxContentBytes) throw new ExportLimitError("bytes", `run ${runId}'s artifacts exceed ${Math.round(maxContentBytes / (1024 * 1024))} MiB; an export holds at most that much`);
    }
    artifacts.push(...page);
  }
  return artifacts;
}

/**
 * A run's artifacts (with their content), the dependencies their guards used, and its escalations,
 * within the export limits (server/services/provenance/export-limits.ts).
 */
export async function loadProvenance(db: Db, runId: string, budget: ExportBudget = new ExportBudget(limitsOf())) {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { id: true, status: true, specification: true, createdAt: true, parentRunId: true, workflowVersion: { select: { version: true, workflow: { select: { name: true } } } } },
  });
  if (!run) throw notFound("Run", runId);
  const artifacts = await loadArtifacts(db, runId, budget);
  budget.check();
  const [dependencies, escalations] = await Promise.all([
    db.artifactDependency.findMany({ where: { artifact: { runId } }, take: budget.limits.maxArtifacts * 20 }),
    db.escalation.findMany({ where: { runId }, orderBy: { createdAt: "asc" }, take: budget.limits.maxArtifacts }),
  ]);
  budget.check();
  return { run, artifacts, dependencies: dependencies as ProvenanceDependency[], escalations: escalations as ProvenanceEscalation[] };
}

/**
 * The provenance page: the artifact graph, the execution graph drawn next to it (tool calls by
 * their attempts, joins to the parent and sub-runs), and each artifact's content and language for
 * the side panel.
 */
export async function getProvenance(db: Db, runId: string) {
  const { run, artifacts, dependencies, escalations } = await loadProvenance(db, runId);
  return {
    run: { id: run.id, status: run.status, workflow: run.workflowVersion?.workflow.name ?? null, version: run.workflowVersion?.version ?? null },
    graph: buildProvenanceGraph({ artifacts: artifacts as ProvenanceArtifact[], dependencies, escalations }),
    execution: await loadExecutionGraph(db, run, artifacts),
    artifacts: Object.fromEntries(artifacts.map((artifact) => [artifact.id, { content: artifact.content, language: artifact.language, parentId: artifact.parentId }])),
  };
}

/** The run's provenance as a W3C PROV-JSON document. */
export async function exportProvJson(db: Db, runId: string, options: ExportOptions = {}) {
  const { run, artifacts, dependencies, escalations } = await loadProvenance(db, runId, new ExportBudget(limitsOf(options), options.signal));
  return toProvJson({ id: run.id, workflow: run.workflowVersion?.workflow.name ?? null, version: run.workflowVersion?.version ?? null, specification: run.specification }, { artifacts, dependencies, escalations });
}
