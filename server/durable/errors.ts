/**
 * Thrown when a turn cannot show a valid lease: its compare-and-swap on (epoch, active turn, lease
 * not expired by the database's clock) changed no row, because another turn owns the run now or
 * the lease ran out. The turn stops and writes nothing more.
 */
export class LeaseLostError extends Error {
  override readonly name = "LeaseLostError";
  readonly code = "LEASE_LOST";
  constructor(
    readonly runId: string,
    readonly epoch: number,
  ) {
    super(`Run ${runId}: turn of epoch ${epoch} no longer holds a valid lease (expired, reclaimed or cancelled)`);
  }
}

export function isLeaseLost(error: unknown): error is LeaseLostError {
  return error instanceof Error && error.name === "LeaseLostError";
}

/** Thrown by enqueueRun for a workflow that was archived: archived workflows do not run. */
export class WorkflowArchivedError extends Error {
  override readonly name = "WorkflowArchivedError";
  readonly code = "WORKFLOW_ARCHIVED";
  constructor(readonly workflowName: string) {
    super(`Workflow "${workflowName}" is archived`);
  }
}

export function isWorkflowArchived(error: unknown): error is WorkflowArchivedError {
  return error instanceof Error && error.name === "WorkflowArchivedError";
}
