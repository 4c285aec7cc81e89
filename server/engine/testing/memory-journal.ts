import { recordEvent } from "../run/record-event";
import type { EngineEvent, RunObserver } from "../ports/run-observer";

/**
 * An observer that keeps keyed events the way a durable store does: each key once, readable
 * back through `recall`. Running a machine twice over one journal is a crash and a resume.
 */
export class MemoryJournal implements RunObserver {
  readonly events: EngineEvent[] = [];
  readonly #payloads = new Map<string, Readonly<Record<string, unknown>>>();

  async record(event: EngineEvent, key?: string): Promise<void> {
    if (key !== undefined) {
      if (this.#payloads.has(key)) return;
      this.#payloads.set(key, recordEvent(event, new Date()).ledger.payload);
    }
    this.events.push(event);
  }

  async recall(key: string): Promise<Readonly<Record<string, unknown>> | undefined> {
    return this.#payloads.get(key);
  }

  /** Writes what a person (or the watchdog) decided, as the decision service does. */
  decide(key: string, decision: Readonly<Record<string, unknown>>): void {
    this.#payloads.set(key, decision);
  }

  types(): string[] {
    return this.events.map((event) => event.type);
  }
}
