import type { Artifact } from "../domain/artifact";
import type { GuardResult } from "../domain/guard-result";
import type { StepKind } from "../domain/step-kind";

/**
 * One attempt as the DAG keeps it: the artifact, where it came from, and its verdict. An llm,
 * code or transition step's attempt has no guard (`guardId` ""): its result is passed for the
 * step's output and failed, with the reason as feedback, for an attempt that was retried.
 */
export interface StoredArtifact {
  readonly artifact: Artifact;
  readonly stepName: string;
  /** The type of step that made it; absent means an action pair (everything stored before issue 17). */
  readonly stepKind?: StepKind;
  readonly guardId: string;
  readonly result: GuardResult;
  /** Dependency name → id of the artifact handed to the guard under that name. */
  readonly dependencyIds: Readonly<Record<string, string>>;
  readonly language?: string | null;
}

/**
 * Artifact repository R (001 `ArtifactDAGInterface`), scoped to one run. Attempts chain through
 * `artifact.parentId`; guards' dependencies are the other edges of the DAG.
 */
export interface ArtifactDag {
  /** Appends an attempt. Storing an id twice is an error: artifacts are immutable. */
  store(entry: StoredArtifact): Promise<void>;
  /** Throws ArtifactNotFoundError for an unknown id. */
  get(artifactId: string): Promise<StoredArtifact>;
  /** The refinement chain that led to the artifact, oldest first, ending with the artifact. */
  provenance(artifactId: string): Promise<StoredArtifact[]>;
}
