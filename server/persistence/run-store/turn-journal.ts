import {
  ArtifactNotFoundError,
  CallFailedError,
  recordEvent,
  type ArtifactDag,
  type CallLedger,
  type CallOutcome,
  type CallRequest,
  type EngineEvent,
  type JsonObject,
  type RunObserver,
  type StoredArtifact,
} from "../../engine";
import type { SqlRunStore } from "./sql-run-store";
import type { ArtifactRow, ClaimedTurn, EscalationRow, HeadPatch, LedgerRow, TurnBatch, TurnSnapshot } from "./types";

/** Fault injection for the crash tests: the worker process exits at the named ledger boundary. */
export type CrashPoint = "model-returned" | "model-recorded" | "guard-returned";

/**
 * One turn's view of its run for the engine: the ArtifactDag, RunObserver and CallLedger it
 * writes through. Writes are buffered and committed at the points that make them durable
 * together with the state they justify:
 * - before a model or tool call (what led to it), and right after its result;
 * - a verdict that does not move the state (a failed attempt), a state advance, a finished
 *   llm/code/transition step;
 * - the end of the turn (run finished or suspended), with the head and the inbox message.
 * Everything else waits for the next of these, so a typical attempt is one commit.
 * Each key is recorded once: a resumed turn replays the ledger and adds only what is new.
 */
export class TurnJournal {
  #ledger: LedgerRow[] = [];
  #artifacts: ArtifactRow[] = [];
  #escalations: EscalationRow[] = [];
  #head: HeadPatch = {};
  #seq: number;
  readonly #stored = new Map<string, StoredArtifact>();

  constructor(
    private readonly store: SqlRunStore,
    private readonly turn: ClaimedTurn,
    private readonly snapshot: TurnSnapshot,
    private readonly hooks: { readonly crashAt?: (point: CrashPoint) => void } = {},
  ) {
    this.#seq = snapshot.lastSeq;
    // Whatever the run's head said before (dispatched, suspended, queued after a reclaim), it runs now.
    this.#head = { status: "running" };
  }

  readonly observer: RunObserver = {
    record: async (event, key) => {
      if (key !== undefined && this.snapshot.keyed.has(`event:${key}`)) return;
      if (event.type === "guard.completed") this.hooks.crashAt?.("guard-returned");
      this.#add(event, key);
      if (flushesAfter(event)) await this.flush();
    },
    recall: async (key) => this.snapshot.keyed.get(`event:${key}`),
  };

  readonly dag: ArtifactDag = {
    store: async (entry) => {
      this.#stored.set(entry.artifact.id, entry);
      const { artifact, result } = entry;
      this.#artifacts.push({
        id: artifact.id,
        stepName: entry.stepName,
        guardId: entry.guardId,
        attempt: artifact.version,
        parentId: artifact.parentId,
        content: artifact.content,
        contentHash: artifact.contentHash,
        language: entry.language ?? null,
        passed: result.passed,
        fatal: result.fatal,
        feedback: result.feedback,
        dependencyIds: entry.dependencyIds,
      });
    },
    get: async (artifactId) => {
      const known = this.#stored.get(artifactId) ?? (await this.store.getArtifact(this.turn.runId, artifactId));
      if (!known) throw new ArtifactNotFoundError(artifactId);
      this.#stored.set(artifactId, known);
      return known;
    },
    provenance: async (artifactId) => {
      const chain: StoredArtifact[] = [];
      for (let id: string | null = artifactId; id !== null; ) {
        const entry = await this.dag.get(id);
        chain.push(entry);
        id = entry.artifact.parentId;
      }
      return chain.reverse();
    },
  };

  readonly calls: CallLedger = {
    call: async (key: string, request: CallRequest, perform: () => Promise<JsonObject>): Promise<CallOutcome> => {
      const recorded = this.snapshot.keyed.get(`result:${key}`) as JsonObject | undefined;
      if (recorded) return toOutcome(recorded, true);
      this.#row(request.actor, "action_call", { policy: request.policy, payload: request.payload }, null);
      await this.flush();
      let payload: JsonObject;
      try {
        payload = await perform();
      } catch (error) {
        if (!(error instanceof CallFailedError)) throw error;
        payload = { error: true, code: error.code, message: error.message };
      }
      this.hooks.crashAt?.("model-returned");
      this.#row(request.policy, "action_result", payload, `result:${key}`);
      await this.flush();
      this.hooks.crashAt?.("model-recorded");
      return toOutcome(payload, false);
    },
    note: async (key, actor, text) => {
      if (this.snapshot.keyed.has(`note:${key}`)) return;
      this.#row(actor, "text", { text }, `note:${key}`);
    },
  };

  #row(actor: string, type: string, payload: unknown, callKey: string | null): void {
    this.#ledger.push({ seq: ++this.#seq, actor, type, payload, callKey });
    if (callKey !== null) this.snapshot.keyed.set(callKey, payload as Record<string, unknown>);
  }

  #add(event: EngineEvent, key: string | undefined): void {
    const { ledger, patch, escalation } = recordEvent(event, new Date());
    this.#row(ledger.actor, ledger.type, ledger.payload, key === undefined ? null : `event:${key}`);
    const head = this.#head;
    if (patch.status !== undefined) head.status = patch.status as HeadPatch["status"];
    if (patch.workflowState !== undefined) head.workflowState = patch.workflowState;
    if (patch.currentStep !== undefined) head.currentStep = patch.currentStep;
    if (patch.currentState !== undefined) head.currentState = patch.currentState;
    if (patch.attemptIncrement) head.attemptIncrement = (head.attemptIncrement ?? 0) + patch.attemptIncrement;
    if (patch.stepsCompletedIncrement) head.stepsCompletedIncrement = (head.stepsCompletedIncrement ?? 0) + patch.stepsCompletedIncrement;
    if (patch.result !== undefined) head.finalResult = patch.result;
    if (patch.startedAt !== undefined) head.startedAt ??= patch.startedAt;
    if (patch.finishedAt !== undefined) head.finishedAt = patch.finishedAt;
    if (escalation) this.#escalations.push({ ...escalation, decisionKey: escalation.decisionKey ?? null });
  }

  #take(extra: Partial<TurnBatch> = {}): TurnBatch {
    const batch: TurnBatch = { ...extra, ledger: this.#ledger, artifacts: this.#artifacts, escalations: this.#escalations, head: { ...this.#head, ...extra.head } };
    this.#ledger = [];
    this.#artifacts = [];
    this.#escalations = [];
    this.#head = {};
    return batch;
  }

  /** Commits what is buffered (nothing to do when nothing is). @throws LeaseLostError */
  async flush(): Promise<void> {
    if (this.#ledger.length === 0 && this.#artifacts.length === 0 && Object.keys(this.#head).length === 0) return;
    await this.store.commit(this.turn, this.#take());
  }

  /**
   * Ends the turn: the buffered rows, the head's final patch and the inbox message's completion,
   * in one commit that also releases the lease. `escalationExpiresAt` becomes the resume deadline
   * of a suspension.
   */
  async end(final: { head?: HeadPatch; escalationExpiresAt?: Date; cancelEscalations?: boolean } = {}): Promise<void> {
    const batch = this.#take({ head: final.head, end: { messageId: this.turn.messageId }, escalationExpiresAt: final.escalationExpiresAt, cancelEscalations: final.cancelEscalations });
    await this.store.commit(this.turn, batch);
  }

  /** Appends a ledger row outside the engine's events (cancel, delivery of an internal failure). */
  append(actor: string, type: string, payload: unknown, key?: string): void {
    if (key !== undefined && this.snapshot.keyed.has(`event:${key}`)) return;
    this.#row(actor, type, payload, key === undefined ? null : `event:${key}`);
  }

  /** Records an engine event directly (the worker's own run.finished for cancels and internal failures). */
  recordNow(event: EngineEvent, key: string): void {
    if (this.snapshot.keyed.has(`event:${key}`)) return;
    this.#add(event, key);
  }
}

/** Events after which the buffer is committed; see the class comment. */
function flushesAfter(event: EngineEvent): boolean {
  switch (event.type) {
    case "guard.completed":
      return !event.result.passed && !event.result.fatal;
    case "state.advanced":
    case "step.completed":
      return true;
    default:
      return false;
  }
}

function toOutcome(payload: JsonObject, replayed: boolean): CallOutcome {
  if (payload.error === true && typeof payload.code === "string" && typeof payload.message === "string") {
    return { ok: false, error: { error: true, code: payload.code, message: payload.message }, replayed };
  }
  return { ok: true, result: payload, replayed };
}
