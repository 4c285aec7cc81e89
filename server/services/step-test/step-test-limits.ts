/**
 * How much one step test may ask for. A test runs the step's real generator and guards (model
 * calls, sandboxes) on the web server, outside any run, so every input and the time it takes are
 * bounded here, and each person may have only a few tests running at once.
 */
export const STEP_TEST_LIMITS = {
  /** The draft workflow document, as the editor's live check accepts it. */
  documentChars: 2 * 1024 * 1024,
  specificationChars: 100_000,
  variables: 100,
  variableChars: 10_000,
  dependencies: 16,
  /** One dependency artifact's text (typed in or pinned from a run). */
  dependencyChars: 200_000,
  /** A pasted answer, used as the artifact as a replayed one would be. */
  answerChars: 500_000,
  /** Model call, guards and retries together; the model call also keeps its own timeout. */
  totalMs: 120_000,
  /** Step tests one person may have running at once (each may hold a sandbox). */
  perPersonConcurrency: 2,
  /** Earlier artifacts offered per dependency for pinning. */
  pinnableArtifacts: 10,
} as const;
