/**
 * Bounds on the work one provenance export (git repository, git bundle, PROV-JSON, the provenance
 * page) may do: how many attempts and how much artifact text it reads, and how long it may take,
 * all the `git` processes included. The export also stops as soon as its caller's signal aborts
 * (an HTTP client that went away): the git process running is killed and nothing more is read.
 */
export interface ExportLimits {
  readonly maxArtifacts: number;
  readonly maxContentBytes: number;
  readonly timeLimitMs: number;
}

export const EXPORT_LIMITS: ExportLimits = { maxArtifacts: 1_000, maxContentBytes: 64 * 1024 * 1024, timeLimitMs: 60_000 };

export interface ExportOptions {
  readonly signal?: AbortSignal;
  readonly limits?: Partial<ExportLimits>;
}

/** An export that would exceed a limit; `limit` says which. */
export class ExportLimitError extends Error {
  override readonly name = "ExportLimitError";

  constructor(
    readonly limit: "artifacts" | "bytes" | "time",
    message: string,
  ) {
    super(message);
  }
}

export function isExportLimitError(error: unknown): error is ExportLimitError {
  return error instanceof Error && error.name === "ExportLimitError";
}

/** Whether an export stopped because its caller's signal aborted (not a failure worth logging). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || (error as NodeJS.ErrnoException).code === "ABORT_ERR");
}

export function limitsOf(options: ExportOptions = {}): ExportLimits {
  return { ...EXPORT_LIMITS, ...options.limits };
}

/**
 * The signal the export's steps watch: the caller's, or the time limit running out. Throws the
 * right error when it has fired: ExportLimitError for the time limit, the caller's AbortError otherwise.
 */
export class ExportBudget {
  readonly signal: AbortSignal;
  readonly #timeout: AbortSignal;

  constructor(
    readonly limits: ExportLimits,
    caller?: AbortSignal,
  ) {
    this.#timeout = AbortSignal.timeout(limits.timeLimitMs);
    this.signal = caller ? AbortSignal.any([caller, this.#timeout]) : this.#timeout;
  }

  /** Throws if the export must stop. */
  check(): void {
    if (!this.signal.aborted) return;
    throw this.stopReason();
  }

  /** What to throw now that the signal has fired (also for an error a killed git process raised). */
  stopReason(): Error {
    const ms = this.limits.timeLimitMs;
    if (this.#timeout.aborted) return new ExportLimitError("time", `the export took longer than ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`} and was stopped`);
    const abort = new Error("the export was abandoned by its caller");
    abort.name = "AbortError";
    return abort;
  }
}
