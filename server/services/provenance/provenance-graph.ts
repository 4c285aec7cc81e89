import { isStepKind, type StepKind } from "@/server/engine/domain/step-kind";

/**
 * A run's provenance as a graph (001's artifact DAG): every attempt is an artifact node, chained
 * to the attempt it refined; dependency edges point from the artifacts a guard was given to the
 * artifact it judged; escalations and human decisions are nodes of their own. Pure.
 */
export interface ProvenanceArtifact {
  readonly id: string;
  readonly stepName: string;
  /** Which type of step made it (`action_pair` for rows stored before the column existed). */
  readonly stepKind: string;
  readonly guardId: string;
  readonly attempt: number;
  readonly parentId: string | null;
  readonly passed: boolean;
  readonly fatal: boolean;
  readonly feedback: string;
  readonly contentHash: string;
  readonly createdAt: Date;
}

export interface ProvenanceDependency {
  readonly artifactId: string;
  readonly name: string;
  readonly dependencyId: string;
}

export interface ProvenanceEscalation {
  readonly id: string;
  readonly artifactId: string;
  readonly stepName: string;
  readonly status: string;
  readonly feedback: string;
  readonly decidedBy: string | null;
  readonly decidedAt: Date | null;
  readonly comment: string | null;
  readonly createdAt: Date;
}

export type Verdict = "passed" | "failed" | "fatal";

export type ProvenanceNode =
  | { readonly id: string; readonly kind: "artifact"; readonly artifactId: string; readonly step: string; readonly stepKind: StepKind; readonly guardId: string; readonly attempt: number; readonly verdict: Verdict; readonly feedback: string; readonly contentHash: string; readonly at: Date }
  | { readonly id: string; readonly kind: "escalation"; readonly escalationId: string; readonly step: string; readonly status: string; readonly feedback: string; readonly at: Date }
  | { readonly id: string; readonly kind: "decision"; readonly escalationId: string; readonly decision: string; readonly decidedBy: string; readonly comment: string | null; readonly at: Date };

export interface ProvenanceEdge {
  readonly id: string;
  readonly kind: "refinement" | "dependency" | "escalation" | "decision";
  readonly source: string;
  readonly target: string;
  readonly label?: string;
}

export interface ProvenanceGraph {
  readonly nodes: readonly ProvenanceNode[];
  readonly edges: readonly ProvenanceEdge[];
}

export const verdictOf = (artifact: Pick<ProvenanceArtifact, "passed" | "fatal">): Verdict => (artifact.passed ? "passed" : artifact.fatal ? "fatal" : "failed");

export function buildProvenanceGraph(input: { artifacts: readonly ProvenanceArtifact[]; dependencies: readonly ProvenanceDependency[]; escalations: readonly ProvenanceEscalation[] }): ProvenanceGraph {
  const known = new Set(input.artifacts.map((artifact) => artifact.id));
  const nodes: ProvenanceNode[] = [];
  const edges: ProvenanceEdge[] = [];
  const byTime = [...input.artifacts].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.attempt - b.attempt);
  for (const artifact of byTime) {
    nodes.push({ id: artifact.id, kind: "artifact", artifactId: artifact.id, step: artifact.stepName, stepKind: isStepKind(artifact.stepKind) ? artifact.stepKind : "action_pair", guardId: artifact.guardId, attempt: artifact.attempt, verdict: verdictOf(artifact), feedback: artifact.feedback, contentHash: artifact.contentHash, at: artifact.createdAt });
    if (artifact.parentId !== null && known.has(artifact.parentId)) {
      edges.push({ id: `refines:${artifact.parentId}->${artifact.id}`, kind: "refinement", source: artifact.parentId, target: artifact.id });
    }
  }
  for (const dependency of input.dependencies) {
    if (!known.has(dependency.artifactId) || !known.has(dependency.dependencyId)) continue;
    edges.push({ id: `uses:${dependency.dependencyId}->${dependency.artifactId}:${dependency.name}`, kind: "dependency", source: dependency.dependencyId, target: dependency.artifactId, label: dependency.name });
  }
  for (const escalation of input.escalations) {
    if (!known.has(escalation.artifactId)) continue;
    const escalationNode = `escalation:${escalation.id}`;
    nodes.push({ id: escalationNode, kind: "escalation", escalationId: escalation.id, step: escalation.stepName, status: escalation.status, feedback: escalation.feedback, at: escalation.createdAt });
    edges.push({ id: `escalates:${escalation.artifactId}->${escalationNode}`, kind: "escalation", source: escalation.artifactId, target: escalationNode });
    if (escalation.decidedAt !== null && escalation.status !== "pending") {
      const decisionNode = `decision:${escalation.id}`;
      nodes.push({ id: decisionNode, kind: "decision", escalationId: escalation.id, decision: escalation.status, decidedBy: escalation.decidedBy ?? "unknown", comment: escalation.comment, at: escalation.decidedAt });
      edges.push({ id: `decides:${escalationNode}->${decisionNode}`, kind: "decision", source: escalationNode, target: decisionNode });
    }
  }
  return { nodes, edges };
}
