import type { Artifact } from "../domain/artifact";
import type { GuardResult } from "../domain/guard-result";

/** Artifacts a guard may read, by dependency name ("test" for guard id "g_test"). */
export type GuardDependencies = Readonly<Record<string, Artifact>>;

export interface GuardCallOptions {
  /**
   * Aborted when the turn must stop at once (cancel, lost lease, shutdown): kill what runs (a
   * sandbox, a model call) and throw the signal's reason; an abort is never a verdict.
   */
  readonly signal?: AbortSignal;
}

/**
 * G of 001. Receives only the dependencies scoped for it (001, Guard Input Scoping).
 * Bad artifact content is a verdict, never an exception.
 */
export interface Guard {
  validate(artifact: Artifact, dependencies: GuardDependencies, options?: GuardCallOptions): Promise<GuardResult>;
}
