import { initialWorkflowState } from "../domain/workflow-state";
import { RunNotFoundError } from "../errors";
import { randomIds, type IdGenerator } from "../ports/ids";
import type { ArtifactDag } from "../ports/artifact-dag";
import type { RunObserver } from "../ports/run-observer";
import { recordEvent, type RunPatch } from "../run/record-event";
import type { EscalationRecord, LedgerEntryRecord, RunRecord } from "../run/run-record";
import type { NewRun, RunRepository } from "../run/run-repository";
import { InMemoryArtifactDag } from "./in-memory-artifact-dag";
import type { CallLedger } from "../ports/call-ledger";
import { MemoryCallLedger } from "../run/memory-call-ledger";

/** RunRepository kept in memory: the reference the Prisma repository is checked against. */
export class InMemoryRunRepository implements RunRepository {
  readonly #runs = new Map<string, RunRecord>();
  readonly #dags = new Map<string, InMemoryArtifactDag>();
  readonly #ledgers = new Map<string, LedgerEntryRecord[]>();
  readonly #escalations: EscalationRecord[] = [];
  readonly #calls = new Map<string, MemoryCallLedger>();

  constructor(
    private readonly newId: IdGenerator = randomIds,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(run: NewRun): Promise<RunRecord> {
    const record: RunRecord = {
      id: this.newId(),
      workflowVersionId: run.workflowVersionId ?? null,
      specification: run.specification,
      status: "queued",
      workflowState: initialWorkflowState,
      currentStep: null,
      attemptCount: 0,
      stepsCompleted: 0,
      result: null,
      createdAt: this.now(),
      startedAt: null,
      finishedAt: null,
    };
    this.#runs.set(record.id, record);
    this.#dags.set(record.id, new InMemoryArtifactDag());
    this.#ledgers.set(record.id, []);
    return record;
  }

  async get(runId: string): Promise<RunRecord> {
    const run = this.#runs.get(runId);
    if (!run) throw new RunNotFoundError(runId);
    return run;
  }

  dag(runId: string): ArtifactDag {
    const dag = this.#dags.get(runId);
    if (!dag) throw new RunNotFoundError(runId);
    return dag;
  }

  observer(runId: string): RunObserver {
    return {
      record: async (event) => {
        const run = await this.get(runId);
        const now = this.now();
        const { ledger, patch, escalation } = recordEvent(event, now);
        const entries = this.#ledgers.get(runId) ?? [];
        entries.push(Object.freeze({ ...ledger, seq: entries.length + 1, createdAt: now }));
        this.#runs.set(runId, applyPatch(run, patch));
        if (escalation) {
          this.#escalations.push({ ...escalation, id: this.newId(), runId, status: "pending", createdAt: now });
        }
      },
    };
  }

  calls(runId: string): CallLedger {
    if (!this.#runs.has(runId)) throw new RunNotFoundError(runId);
    let ledger = this.#calls.get(runId);
    if (!ledger) this.#calls.set(runId, (ledger = new MemoryCallLedger()));
    return ledger;
  }

  async ledger(runId: string): Promise<LedgerEntryRecord[]> {
    await this.get(runId);
    return [...(this.#ledgers.get(runId) ?? [])];
  }

  async escalations(runId: string): Promise<EscalationRecord[]> {
    await this.get(runId);
    return this.#escalations.filter((escalation) => escalation.runId === runId);
  }
}

function applyPatch(run: RunRecord, patch: RunPatch): RunRecord {
  return {
    ...run,
    status: patch.status ?? run.status,
    workflowState: patch.workflowState ?? run.workflowState,
    currentStep: patch.currentStep === undefined ? run.currentStep : patch.currentStep,
    attemptCount: run.attemptCount + (patch.attemptIncrement ?? 0),
    stepsCompleted: run.stepsCompleted + (patch.stepsCompletedIncrement ?? 0),
    result: patch.result ?? run.result,
    startedAt: patch.startedAt ?? run.startedAt,
    finishedAt: patch.finishedAt ?? run.finishedAt,
  };
}
