import type { ArtifactDag } from "../ports/artifact-dag";

/** Ambient environment E = ⟨R, Ω⟩: read-only artifact repository and global constraints. */
export interface AmbientEnvironment {
  readonly repository: ArtifactDag;
  readonly constraints: string;
}

/** One failed attempt remembered for context refinement: the artifact content and its feedback. */
export interface FeedbackEntry {
  readonly artifact: string;
  readonly feedback: string;
}

/** Hierarchical context C = ⟨E, C_local, H_feedback⟩ (000 Definition 3, 001 `Context`). */
export interface Context {
  readonly ambient: AmbientEnvironment;
  readonly specification: string;
  readonly currentArtifact: string | null;
  readonly feedbackHistory: readonly FeedbackEntry[];
}

/** compose_context of 000: a fresh context with no history. */
export function composeContext(ambient: AmbientEnvironment, specification: string): Context {
  return Object.freeze({ ambient, specification, currentArtifact: null, feedbackHistory: Object.freeze([]) });
}

/** Definition 5: the failed artifact becomes current and (artifact, feedback) joins the history. */
export function refineContext(context: Context, artifactContent: string, feedback: string): Context {
  return Object.freeze({
    ...context,
    currentArtifact: artifactContent,
    feedbackHistory: Object.freeze([...context.feedbackHistory, Object.freeze({ artifact: artifactContent, feedback })]),
  });
}
