import type { WorkflowResult } from "../domain/workflow-result";
import type { RunResultSummary } from "./run-record";

/** Ids instead of contents, so the stored result stays small; contents are in the DAG. */
export function summarizeResult(result: WorkflowResult): RunResultSummary {
  const artifactIds = Object.fromEntries(Object.entries(result.artifacts).map(([guardId, artifact]) => [guardId, artifact.id]));
  switch (result.status) {
    case "success":
      return { status: "success", artifactIds, failedStep: null, reason: null, provenance: [], escalation: null };
    case "failed":
      return {
        status: "failed",
        artifactIds,
        failedStep: result.failedStep,
        reason: result.reason,
        provenance: result.provenance.map((entry) => ({ artifactId: entry.artifact?.id ?? null, feedback: entry.feedback })),
        escalation: null,
      };
    case "escalation":
      return {
        status: "escalation",
        artifactIds,
        failedStep: result.failedStep,
        reason: result.escalationFeedback,
        provenance: [],
        escalation: { artifactId: result.escalationArtifact.id, feedback: result.escalationFeedback },
      };
  }
}
