import type { RunStatus } from "@/components/dashboard/run-status-badge";

// A Record over the status union: a new status fails to compile until it is classified.
const TERMINAL: Record<RunStatus, boolean> = {
  queued: false,
  dispatched: false,
  running: false,
  suspended: false,
  succeeded: true,
  failed: true,
  escalated: true,
  cancelled: true,
};

/** A terminal run never changes again, so the run page stops refreshing it. */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return TERMINAL[status];
}
