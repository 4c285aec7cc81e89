import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { SqlRunStore } from "../persistence/run-store/sql-run-store";
import type { ClaimedTurn } from "../persistence/run-store/types";
import type { Doorbell } from "./doorbell";
import { executeTurn, type TurnOptions, type TurnOutcome } from "./execute-turn";
import { sweep } from "./watchdog";

export interface WorkerOptions extends TurnOptions {
  readonly workerId?: string;
  /** Turns executed at once by this worker. */
  readonly concurrency?: number;
  /** Longest wait between inbox polls when the doorbell stays silent. */
  readonly pollMs?: number;
  readonly watchdogIntervalMs?: number;
  readonly onTurn?: (turn: ClaimedTurn, outcome: TurnOutcome) => void;
  /** Claim only this run's messages (`dualstate run` executing its own run in the foreground). */
  readonly onlyRunId?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A worker: `concurrency` loops that claim due inbox messages and execute their turns, plus the
 * watchdog. Between turns a loop waits on the doorbell, polling as the safety net. `stop()`
 * drains: no new claims, running turns finish (or, past the drain time, are released to the
 * inbox so another worker resumes them).
 */
export class RunWorker {
  readonly workerId: string;
  #stopping = false;
  #loops: Promise<void>[] = [];
  #watchdog: NodeJS.Timeout | undefined;
  readonly #active = new Set<ClaimedTurn>();

  constructor(
    private readonly store: SqlRunStore,
    private readonly doorbell: Doorbell,
    private readonly options: WorkerOptions,
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  start(): void {
    const concurrency = Math.max(1, this.options.concurrency ?? 1);
    for (let slot = 0; slot < concurrency; slot++) this.#loops.push(this.#loop());
    const interval = this.options.watchdogIntervalMs ?? Math.max(250, Math.min(5_000, this.options.leaseMs / 2));
    this.#watchdog = setInterval(() => void this.sweepNow().catch((error) => this.options.log?.(`watchdog: ${describe(error)}`)), interval);
    this.#watchdog.unref();
  }

  /** Wakes idle loops: a message was committed. */
  ring(): void {
    this.doorbell.ring();
  }

  async sweepNow(): Promise<void> {
    const report = await sweep(this.store);
    for (const run of report.reclaimed) this.options.log?.(`watchdog: reclaimed run ${run.runId} from ${run.leaseOwner ?? "?"} (epoch ${run.epoch})`);
    for (const runId of report.expired) this.options.log?.(`watchdog: escalation of run ${runId} expired`);
    if (report.reclaimed.length > 0 || report.expired.length > 0) this.doorbell.ring();
  }

  async #loop(): Promise<void> {
    const pollMs = this.options.pollMs ?? 1_000;
    let failures = 0;
    // Planner statistics: a claim on a never-analysed PostgreSQL table costs O(queue length).
    await this.store.ensurePlannerStatistics().catch((error) => this.options.log?.(`worker ${this.workerId}: cannot analyse the inbox (${describe(error)})`));
    while (!this.#stopping) {
      let turn: ClaimedTurn | null;
      try {
        turn = await this.store.claim(this.workerId, this.options.leaseMs, new Date(), this.options.onlyRunId);
        failures = 0;
      } catch (error) {
        // The database is away (a restart): keep trying, slower each time.
        failures++;
        if (failures === 1 || failures % 20 === 0) this.options.log?.(`worker ${this.workerId}: cannot claim (${describe(error)}); retrying`);
        await sleep(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
        continue;
      }
      if (!turn) {
        await this.doorbell.wait(pollMs);
        continue;
      }
      this.#active.add(turn);
      try {
        const outcome = await executeTurn(this.store, turn, this.options);
        this.options.onTurn?.(turn, outcome);
      } finally {
        this.#active.delete(turn);
      }
    }
  }

  /** Stops claiming, waits up to `drainMs` for running turns, then releases the rest to the inbox. */
  async stop(drainMs = 30_000): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#watchdog);
    this.doorbell.ring();
    const drained = Promise.all(this.#loops).then(() => true);
    const finished = await Promise.race([drained, sleep(drainMs).then(() => false)]);
    if (!finished) {
      for (const turn of this.#active) await this.store.deferTurn(turn, `worker ${this.workerId} shut down`, 0).catch(() => {});
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
