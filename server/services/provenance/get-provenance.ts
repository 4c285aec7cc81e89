import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";
import { buildProvenanceGraph, type ProvenanceArtifact, type ProvenanceDependency, type ProvenanceEscalation } from "./provenance-graph";
import { toProvJson } from "./prov-json";

/** A run's artifacts (with their content), the dependencies their guards used, and its escalations. */
export async function loadProvenance(db: Db, runId: string) {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { id: true, status: true, specification: true, createdAt: true, workflowVersion: { select: { version: true, workflow: { select: { name: true } } } } },
  });
  if (!run) throw notFound("Run", runId);
  const [artifacts, dependencies, escalations] = await Promise.all([
    db.artifact.findMany({ where: { runId }, orderBy: [{ createdAt: "asc" }, { attempt: "asc" }] }),
    db.artifactDependency.findMany({ where: { artifact: { runId } } }),
    db.escalation.findMany({ where: { runId }, orderBy: { createdAt: "asc" } }),
  ]);
  return { run, artifacts, dependencies: dependencies as ProvenanceDependency[], escalations: escalations as ProvenanceEscalation[] };
}

/** The provenance page: the graph, plus each artifact's content and language for the side panel. */
export async function getProvenance(db: Db, runId: string) {
  const { run, artifacts, dependencies, escalations } = await loadProvenance(db, runId);
  return {
    run: { id: run.id, status: run.status, workflow: run.workflowVersion?.workflow.name ?? null, version: run.workflowVersion?.version ?? null },
    graph: buildProvenanceGraph({ artifacts: artifacts as ProvenanceArtifact[], dependencies, escalations }),
    artifacts: Object.fromEntries(artifacts.map((artifact) => [artifact.id, { content: artifact.content, language: artifact.language, parentId: artifact.parentId }])),
  };
}

/** The run's provenance as a W3C PROV-JSON document. */
export async function exportProvJson(db: Db, runId: string) {
  const { run, artifacts, dependencies, escalations } = await loadProvenance(db, runId);
  return toProvJson({ id: run.id, workflow: run.workflowVersion?.workflow.name ?? null, version: run.workflowVersion?.version ?? null, specification: run.specification }, { artifacts, dependencies, escalations });
}
