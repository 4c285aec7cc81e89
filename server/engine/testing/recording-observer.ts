import type { EngineEvent, RunObserver } from "../ports/run-observer";

/** Keeps every engine event in order, for assertions on the action sequence. */
export class RecordingObserver implements RunObserver {
  readonly events: EngineEvent[] = [];

  async record(event: EngineEvent): Promise<void> {
    this.events.push(event);
  }

  types(): string[] {
    return this.events.map((event) => event.type);
  }
}
