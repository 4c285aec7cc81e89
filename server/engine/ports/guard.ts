import type { Artifact } from "../domain/artifact";
import type { GuardResult } from "../domain/guard-result";
import type { CallLedger } from "./call-ledger";

/** Artifacts a guard may read, by dependency name ("test" for guard id "g_test"). */
export type GuardDependencies = Readonly<Record<string, Artifact>>;

export interface GuardCallOptions {
  /**
   * Aborted when the turn must stop at once (cancel, lost lease, shutdown): kill what runs (a
   * sandbox, a model call) and throw the signal's reason; an abort is never a verdict.
   */
  readonly signal?: AbortSignal;
  /**
   * The run's ledger, for a guard that calls a model (llm_judge): the call goes through
   * `calls.call` under a key that starts with `callKey`, so a resumed run reads the recorded
   * answer back instead of asking again (002 section 7). Absent where no run records anything
   * (the CLI's guard command, a draft check); the guard then calls directly.
   */
  readonly calls?: CallLedger;
  /** Unique per run, step visit, attempt and guard ("implement/attempt-2/guard/1"). */
  readonly callKey?: string;
}

/**
 * G of 001. Receives only the dependencies scoped for it (001, Guard Input Scoping).
 * Bad artifact content is a verdict, never an exception.
 */
export interface Guard {
  validate(artifact: Artifact, dependencies: GuardDependencies, options?: GuardCallOptions): Promise<GuardResult>;
}
