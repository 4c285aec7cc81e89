import type { Artifact } from "../domain/artifact";
import type { GuardResult } from "../domain/guard-result";

/** One attempt as the DAG keeps it: the artifact, where it came from, and its verdict. */
export interface StoredArtifact {
  readonly artifact: Artifact;
  readonly stepName: string;
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
