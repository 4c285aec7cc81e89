import type { StoredArtifact } from "../ports/artifact-dag";
import { DEFAULT_STEP_KIND, type StepKind } from "./step-kind";

/** A stored artifact as the columns of its row (and its dependency rows) hold it, whichever store writes them. */
export interface ArtifactRow {
  readonly id: string;
  readonly stepName: string;
  readonly stepKind: StepKind;
  readonly guardId: string;
  readonly attempt: number;
  readonly parentId: string | null;
  readonly content: string;
  readonly contentHash: string;
  readonly language: string | null;
  readonly passed: boolean;
  readonly fatal: boolean;
  readonly feedback: string;
  readonly dependencyIds: Readonly<Record<string, string>>;
}

/** The row of `entry`: its attempt number, verdict and defaults spelled out as the columns store them. */
export function artifactRowOf(entry: StoredArtifact): ArtifactRow {
  const { artifact, result } = entry;
  return {
    id: artifact.id,
    stepName: entry.stepName,
    stepKind: entry.stepKind ?? DEFAULT_STEP_KIND,
    guardId: entry.guardId,
    attempt: artifact.version,
    parentId: artifact.parentId,
    content: artifact.content,
    contentHash: artifact.contentHash,
    language: entry.language ?? null,
    passed: result.passed,
    fatal: result.fatal,
    feedback: result.feedback,
    dependencyIds: entry.dependencyIds,
  };
}
