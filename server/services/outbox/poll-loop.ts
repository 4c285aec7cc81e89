import { outboxSignal } from "./outbox-signal";

export interface PollLoop {
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `pollMs`, or at once when this process wakes the outbox dispatchers (a
 * decision was just recorded). A failed pass is logged and the loop goes on; `stop` waits for
 * the pass in flight.
 */
export function startPollLoop(name: string, pass: () => Promise<void>, options: { pollMs?: number; log?: (line: string) => void } = {}): PollLoop {
  let stopped = false;
  let wake: (() => void) | undefined;
  const onWake = () => wake?.();
  outboxSignal().on("wake", onWake);
  const loop = (async () => {
    while (!stopped) {
      try {
        await pass();
      } catch (error) {
        options.log?.(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs ?? 1_000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      outboxSignal().off("wake", onWake);
      await loop;
    },
  };
}
