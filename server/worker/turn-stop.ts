/**
 * Why a running turn is stopped from outside, carried as the reason of the turn's AbortSignal:
 * - cancel: a cancel message for the run is waiting; the turn steps aside and the cancel's own
 *   turn ends the run (nothing is written by the stopped turn);
 * - lease-lost: another turn owns the run now (a takeover); nothing more may be written;
 * - shutdown: the worker's drain time is over; the turn is handed back to the inbox and another
 *   worker resumes it from the ledger.
 */
export type TurnStopReason = "cancel" | "lease-lost" | "shutdown";

export class TurnStoppedError extends Error {
  override readonly name = "TurnStoppedError";
  constructor(readonly reason: TurnStopReason) {
    super(`turn stopped: ${reason}`);
  }
}

export function isTurnStopped(error: unknown): error is TurnStoppedError {
  return error instanceof TurnStoppedError;
}
