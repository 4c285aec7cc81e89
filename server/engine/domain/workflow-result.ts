import type { Artifact } from "./artifact";

export type WorkflowStatus = "success" | "failed" | "escalation";

/** One failed attempt kept for the user: the artifact and the feedback that rejected it. */
export interface ProvenanceEntry {
  readonly artifact: Artifact | null;
  readonly feedback: string;
}

/** Outcome of a workflow run (001 `WorkflowResult`); fields exist only on the status that owns them. */
export type WorkflowResult =
  | {
      readonly status: "success";
      /** Guard id → the artifact that satisfied it. */
      readonly artifacts: Readonly<Record<string, Artifact>>;
    }
  | {
      readonly status: "failed";
      readonly artifacts: Readonly<Record<string, Artifact>>;
      readonly failedStep: string;
      readonly reason: string;
      readonly provenance: readonly ProvenanceEntry[];
    }
  | {
      readonly status: "escalation";
      readonly artifacts: Readonly<Record<string, Artifact>>;
      readonly failedStep: string;
      readonly escalationArtifact: Artifact;
      readonly escalationFeedback: string;
    };
