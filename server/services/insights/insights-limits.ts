/** Bounds of the Metrics page's queries: each reads at most this many rows, whatever the data. */
export const INSIGHTS_LIMITS = {
  /** Decided escalations whose time to decision the percentiles are computed from (the newest). */
  decisionSample: 5_000,
  /** Failed guard verdicts grouped into reasons (the newest). */
  failedVerdictSample: 2_000,
  /** Characters of each verdict's feedback read: the reason is its first line. */
  feedbackChars: 400,
  /** Failure reasons shown. */
  reasons: 10,
  /** Workflow versions whose costs are summed (the most expensive); totals come from all runs. */
  costVersions: 1_000,
  /** Workflows shown in the cost chart (the most expensive). */
  costWorkflows: 20,
} as const;
