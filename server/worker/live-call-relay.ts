import type { CallLedger } from "../engine";
import type { TokenEvent } from "../generators/openai/openai-generator";
import type { LiveCallWriter } from "../durable/live-call-writer";

/** How often the streamed text is written at most: often enough to look live, rarely enough to cost little. */
export const LIVE_CALL_INTERVAL_MS = 200;

/**
 * Carries the tokens of one turn's streaming model call to the `LiveCall` row, where the run
 * page (perhaps another process) reads them. Writes are throttled to one per interval and
 * serialized, and the row is deleted once the call's result is recorded (see `ledger`). A run
 * whose generators stream nothing (replay) costs nothing: no token, no write, no delete.
 * A failed write is dropped: the preview must never fail or slow the run.
 */
export class LiveCallRelay {
  #call: { stepName: string; attempt: number; text: string } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether a row may exist for this turn, so settling without one stays free. */
  #dirty = false;
  #writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly writer: LiveCallWriter,
    private readonly runId: string,
    private readonly epoch: number,
    private readonly intervalMs = LIVE_CALL_INTERVAL_MS,
  ) {}

  readonly onToken = (event: TokenEvent): void => {
    const call = this.#call;
    if (!call || call.stepName !== event.stepName || call.attempt !== event.attempt) this.#call = { stepName: event.stepName, attempt: event.attempt, text: event.token };
    else call.text += event.token;
    this.#dirty = true;
    this.#timer ??= setTimeout(() => this.#flush(), this.intervalMs);
  };

  /** Deletes the row once the call in flight has its result; a no-op when nothing was streamed. */
  async settle(): Promise<void> {
    if (!this.#dirty) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#call = undefined;
    this.#dirty = false;
    this.#enqueue(() => this.writer.clear(this.runId, this.epoch));
    await this.#writes;
  }

  /** `calls` with the live row settled after each call returns, by which time its result is recorded. */
  ledger(calls: CallLedger): CallLedger {
    return {
      call: async (key, request, perform) => {
        try {
          return await calls.call(key, request, perform);
        } finally {
          await this.settle();
        }
      },
      note: (key, actor, text) => calls.note(key, actor, text),
    };
  }

  #flush(): void {
    this.#timer = undefined;
    const call = this.#call;
    if (!call) return;
    const snapshot = { stepName: call.stepName, attempt: call.attempt, text: call.text };
    this.#enqueue(() => this.writer.write(this.runId, this.epoch, snapshot));
  }

  #enqueue(write: () => Promise<void>): void {
    this.#writes = this.#writes.then(write).catch(() => undefined);
  }
}
