/** Where `dualstate eval` shows its progress: a redrawn bar on a terminal, plain lines elsewhere (CI logs). */
export interface ProgressSink {
  readonly tty: boolean;
  write(text: string): void;
}

export const stderrProgress: ProgressSink = {
  tty: Boolean(process.stderr.isTTY),
  write: (text) => void process.stderr.write(text),
};

const BAR_WIDTH = 30;
/** Plain lines: at most one per this many percent, plus the last. */
const LINE_STEP_PERCENT = 10;

/** "[#########.....................]  9/30 samples ended, 4 running" */
export function progressBar(ended: number, total: number, inFlight: number): string {
  const filled = total === 0 ? BAR_WIDTH : Math.round((ended / total) * BAR_WIDTH);
  return `[${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${String(ended).padStart(String(total).length)}/${total} samples ended${inFlight > 0 ? `, ${inFlight} running` : ""}`;
}

/** Shows progress as it changes: redraws the bar in place on a terminal, prints a line per step of 10% otherwise. */
export class ProgressReporter {
  #lastEnded = -1;
  #lastStep = -1;

  constructor(private readonly sink: ProgressSink) {}

  update(ended: number, total: number, inFlight: number): void {
    if (this.sink.tty) {
      if (ended === this.#lastEnded) return;
      this.#lastEnded = ended;
      this.sink.write(`\r${progressBar(ended, total, inFlight)}`);
      return;
    }
    const step = total === 0 ? 100 : Math.floor((ended / total) * (100 / LINE_STEP_PERCENT));
    if (step === this.#lastStep) return;
    this.#lastStep = step;
    this.sink.write(`progress: ${ended}/${total} samples ended\n`);
  }

  finish(): void {
    if (this.sink.tty && this.#lastEnded >= 0) this.sink.write("\n");
  }
}
