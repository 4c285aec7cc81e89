import type { ProvenanceArtifact, ProvenanceDependency, ProvenanceEscalation } from "./provenance-graph";
import { verdictOf } from "./provenance-graph";

/**
 * A run's provenance as the history of a git repository, 001's git-backed artifact DAG: the first
 * commit holds the specification, then one commit per attempt in the order they were made, each
 * writing its step's file (so `git log -p <file>` shows every refinement as a diff) with the
 * verdict in the subject and the feedback in the body. Trailers tie the history back to the DAG:
 * the artifact's id, the attempt it refined and the artifacts its guard depended on. A person's
 * decision on an escalation is an (empty) commit of its own. Pure: git is driven elsewhere.
 */
export interface PlannedCommit {
  /** Files this commit writes (paths relative to the repository root); earlier files stay. */
  readonly files: Readonly<Record<string, string>>;
  readonly message: string;
  readonly at: Date;
  readonly author: string;
}

export interface ProvenanceRun {
  readonly id: string;
  readonly workflow: string | null;
  readonly version: number | null;
  readonly specification: string;
  readonly createdAt: Date;
}

export type CommitArtifact = ProvenanceArtifact & { readonly content: string; readonly language: string | null };

const EXTENSIONS: Record<string, string> = { python: "py", javascript: "js", js: "js", typescript: "ts", ts: "ts", json: "json" };

/** `implement.py`: one file per step, named so editors and `git diff` highlight it. */
export function artifactPath(step: string, language: string | null): string {
  const safe = step.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "_");
  return `${safe}.${EXTENSIONS[language ?? ""] ?? "txt"}`;
}

export function planProvenanceCommits(run: ProvenanceRun, input: { artifacts: readonly CommitArtifact[]; dependencies: readonly ProvenanceDependency[]; escalations: readonly ProvenanceEscalation[] }): PlannedCommit[] {
  const title = `${run.workflow ?? "a deleted workflow"}${run.version === null ? "" : ` v${run.version}`}`;
  const commits: (PlannedCommit & { order: number })[] = [
    {
      files: { "SPECIFICATION.md": `# Run ${run.id}\n\nWorkflow: ${title}\n\n${run.specification}\n` },
      message: `run ${run.id}: ${title}\n\n${run.specification}\n\nRun: ${run.id}`,
      at: run.createdAt,
      author: "dualstate",
      order: 0,
    },
  ];
  const dependenciesOf = (artifactId: string) => input.dependencies.filter((dependency) => dependency.artifactId === artifactId);
  for (const artifact of input.artifacts) {
    const verdict = verdictOf(artifact);
    const trailers = [
      `Artifact: ${artifact.id}`,
      `Step: ${artifact.stepName}`,
      `Attempt: ${artifact.attempt}`,
      `Verdict: ${verdict}`,
      `Guard: ${artifact.guardId}`,
      `Content-Hash: sha256:${artifact.contentHash}`,
      ...(artifact.parentId === null ? [] : [`Refines: ${artifact.parentId}`]),
      ...dependenciesOf(artifact.id).map((dependency) => `Depends-On: ${dependency.name}=${dependency.dependencyId}`),
    ];
    const body = artifact.feedback.trim() === "" ? "" : `${artifact.feedback.trim()}\n\n`;
    commits.push({
      files: { [artifactPath(artifact.stepName, artifact.language)]: artifact.content },
      message: `${artifact.stepName} attempt ${artifact.attempt}: ${verdict}\n\n${body}${trailers.join("\n")}`,
      at: artifact.createdAt,
      author: `generator of ${artifact.stepName}`,
      order: 1,
    });
  }
  for (const escalation of input.escalations) {
    if (escalation.decidedAt === null || escalation.status === "pending") continue;
    const comment = escalation.comment?.trim() ? `${escalation.comment.trim()}\n\n` : "";
    commits.push({
      files: {},
      message: `decision on ${escalation.stepName}: ${escalation.status}\n\n${comment}Escalation: ${escalation.id}\nArtifact: ${escalation.artifactId}\nDecided-By: ${escalation.decidedBy ?? "unknown"}`,
      at: escalation.decidedAt,
      author: escalation.decidedBy ?? "unknown",
      order: 2,
    });
  }
  // The specification first, then in time order; an attempt before a decision made the same instant.
  const [specification, ...rest] = commits;
  const ordered = rest.map((commit, index) => ({ commit, index })).sort((a, b) => a.commit.at.getTime() - b.commit.at.getTime() || a.commit.order - b.commit.order || a.index - b.index);
  return [specification!, ...ordered.map(({ commit }) => commit)].map(({ order: _order, ...commit }) => commit);
}
