import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Doorbell } from "../durable/doorbell";
import type { DurableStore } from "../durable/durable-store";
import type { ClaimedTurn } from "../durable/types";
import { pumpActiveExperiments, pumpAfterTurn } from "../services/experiments/pump-hooks";
import { executeTurn, type TurnOptions, type TurnOutcome, type TurnSeen } from "./execute-turn";
import { TurnStoppedError } from "./turn-stop";
import { sweep } from "./watchdog";

export interface WorkerOptions extends TurnOptions {
  readonly workerId?: string;
  /** Turns executed at once by this worker. */
  readonly concurrency?: number;
  /** Longest wait between inbox polls when the doorbell stays silent. */
  readonly pollMs?: number;
  readonly watchdogIntervalMs?: number;
  /** How often running turns are checked for a cancel message (a cancelled run stops within about this). */
  readonly cancelPollMs?: number;
  readonly onTurn?: (turn: ClaimedTurn, outcome: TurnOutcome) => void;
  /** Claim only this run's messages (`dualstate run` executing its own run in the foreground). */
  readonly onlyRunId?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** After the drain time, how long stopped turns get to hand their runs back. */
const STOP_GRACE_MS = 5_000;

/**
 * A worker: `concurrency` loops that claim due inbox messages and execute their turns, plus the
 * watchdog. Between turns a loop waits on the doorbell, polling as the safety net. Running turns
 * are watched for cancel messages and stopped at once when one arrives (a turn may be waiting on
 * a model or a delay; the cancel must not wait for it). `stop()` drains: no new claims, running
 * turns finish, or past the drain time are aborted and handed back to the inbox so another worker
 * resumes them from the ledger.
 */
export class RunWorker {
  readonly workerId: string;
  #stopping = false;
  #loops: Promise<void>[] = [];
  #watchdog: NodeJS.Timeout | undefined;
  #cancelWatch: NodeJS.Timeout | undefined;
  /** Running turns, each with the controller that stops it. */
  readonly #active = new Map<ClaimedTurn, AbortController>();

  constructor(
    private readonly store: DurableStore,
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
    this.#cancelWatch = setInterval(() => void this.#stopCancelledTurns().catch((error) => this.options.log?.(`cancel watch: ${describe(error)}`)), this.options.cancelPollMs ?? 500);
    this.#cancelWatch.unref();
  }

  async #stopCancelledTurns(): Promise<void> {
    const running = [...this.#active].filter(([turn, controller]) => turn.kind !== "cancel" && !controller.signal.aborted);
    if (running.length === 0) return;
    const cancelled = await this.store.runsWithPendingCancel([...new Set(running.map(([turn]) => turn.runId))]);
    for (const [turn, controller] of running) {
      if (!cancelled.has(turn.runId)) continue;
      this.options.log?.(`run ${turn.runId}: cancel requested; stopping its turn of epoch ${turn.epoch}`);
      controller.abort(new TurnStoppedError("cancel"));
    }
  }

  /** Wakes idle loops: a message was committed. */
  ring(): void {
    this.doorbell.ring();
  }

  async sweepNow(): Promise<void> {
    const report = await sweep(this.store);
    for (const run of report.reclaimed) this.options.log?.(`watchdog: reclaimed run ${run.runId} from ${run.leaseOwner ?? "?"} (epoch ${run.epoch})`);
    for (const runId of report.expired) this.options.log?.(`watchdog: escalation of run ${runId} expired`);
    for (const runId of report.rejected) this.options.log?.(`watchdog: escalation of run ${runId} rejected by its deadline policy`);
    for (const handOff of report.handedOff) this.options.log?.(`watchdog: escalation ${handOff.escalationId} handed to ${handOff.to} (${handOff.reason})`);
    if (report.reclaimed.length > 0 || report.expired.length > 0 || report.rejected.length > 0) this.doorbell.ring();
    await pumpActiveExperiments(this.store);
  }

  async #loop(): Promise<void> {
    const pollMs = this.options.pollMs ?? 1_000;
    let failures = 0;
    // Planner statistics: a claim on a never-analysed PostgreSQL table costs O(queue length).
    await this.store.ensurePlannerStatistics().catch((error) => this.options.log?.(`worker ${this.workerId}: cannot analyse the inbox (${describe(error)})`));
    while (!this.#stopping) {
      let turn: ClaimedTurn | null;
      const claimStarted = performance.now();
      try {
        turn = await this.store.claim(this.workerId, this.options.leaseMs, this.options.onlyRunId);
        this.options.telemetry?.claimed((performance.now() - claimStarted) / 1000, turn ? "claimed" : "empty");
        failures = 0;
      } catch (error) {
        this.options.telemetry?.claimed((performance.now() - claimStarted) / 1000, "error");
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
      const controller = new AbortController();
      this.#active.set(turn, controller);
      try {
        const seen: TurnSeen = {};
        const outcome = await executeTurn(this.store, turn, this.options, controller.signal, seen);
        // An experiment's run that ended frees its slot for the experiment's next sample.
        await pumpAfterTurn(this.store, turn, outcome, seen.snapshot).catch((error) => this.options.log?.(`run ${turn.runId}: cannot pump its experiment (${describe(error)})`));
        this.options.onTurn?.(turn, outcome);
      } finally {
        this.#active.delete(turn);
      }
    }
  }

  /**
   * Stops claiming and waits up to `drainMs` for running turns; then stops them (each hands its
   * run back to the inbox) and waits for that, a few seconds at most. A turn still running after
   * that is released here, so stop() always ends within about drainMs + STOP_GRACE_MS.
   */
  async stop(drainMs = 30_000): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#watchdog);
    this.doorbell.ring();
    const drained = Promise.all(this.#loops).then(() => true);
    if (await Promise.race([drained, sleep(drainMs).then(() => false)])) {
      clearInterval(this.#cancelWatch);
      return;
    }
    for (const controller of this.#active.values()) controller.abort(new TurnStoppedError("shutdown"));
    const finished = await Promise.race([drained, sleep(STOP_GRACE_MS).then(() => false)]);
    clearInterval(this.#cancelWatch);
    if (!finished) {
      for (const turn of this.#active.keys()) await this.store.deferTurn(turn, `worker ${this.workerId} shut down`, 0, false).catch(() => {});
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
