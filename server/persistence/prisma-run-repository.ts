import { randomUUID } from "node:crypto";
import {
  RunNotFoundError,
  initialWorkflowState,
  recordEvent,
  type ArtifactDag,
  type CallLedger,
  type EngineEvent,
  type EscalationRecord,
  type LedgerEntryRecord,
  type NewRun,
  type RunObserver,
  type RunRecord,
  type RunRepository,
} from "../engine";
import type { Db } from "./db";
import { asJson, escalationSelect, ledgerSelect, runSelect, toEscalationRecord, toLedgerEntry, toRunRecord } from "./mappers";
import { appendLedgerEntry } from "./append-ledger-entry";
import { PrismaArtifactDag } from "./prisma-artifact-dag";
import { PrismaCallLedger } from "./prisma-call-ledger";
import { isMissingReference } from "./prisma-errors";

/** Runs, their ledgers and escalations in the database, on SQLite or PostgreSQL alike. */
export class PrismaRunRepository implements RunRepository {
  constructor(private readonly db: Db) {}

  async create(run: NewRun): Promise<RunRecord> {
    const row = await this.db.run.create({
      data: {
        id: randomUUID(),
        workflowVersionId: run.workflowVersionId ?? null,
        specification: run.specification,
        status: "queued",
        workflowState: asJson(initialWorkflowState),
      },
      select: runSelect,
    });
    return toRunRecord(row);
  }

  async get(runId: string): Promise<RunRecord> {
    const row = await this.db.run.findUnique({ where: { id: runId }, select: runSelect });
    if (!row) throw new RunNotFoundError(runId);
    return toRunRecord(row);
  }

  dag(runId: string): ArtifactDag {
    return new PrismaArtifactDag(this.db, runId);
  }

  calls(runId: string): CallLedger {
    return new PrismaCallLedger(this.db, runId);
  }

  observer(runId: string): RunObserver {
    return { record: (event) => this.#record(runId, event) };
  }

  /** The ledger entry, the run update and any escalation commit together or not at all. */
  async #record(runId: string, event: EngineEvent): Promise<void> {
    const { ledger, patch, escalation } = recordEvent(event, new Date());
    await this.db.$transaction(async (tx) => {
      await appendLedgerEntry(tx, runId, ledger);
      await tx.run.update({
        where: { id: runId },
        data: {
          status: patch.status,
          workflowState: patch.workflowState && asJson(patch.workflowState),
          currentStep: patch.currentStep,
          currentState: patch.currentState,
          attemptCount: patch.attemptIncrement ? { increment: patch.attemptIncrement } : undefined,
          stepsCompleted: patch.stepsCompletedIncrement ? { increment: patch.stepsCompletedIncrement } : undefined,
          finalResult: patch.result && asJson(patch.result),
          startedAt: patch.startedAt,
          finishedAt: patch.finishedAt,
        },
        select: { id: true },
      });
      if (escalation) {
        await tx.escalation.create({ data: { id: randomUUID(), runId, ...escalation, status: "pending" }, select: { id: true } });
      }
    }).catch((error: unknown) => {
      throw isMissingReference(error) ? new RunNotFoundError(runId) : error;
    });
  }

  async ledger(runId: string): Promise<LedgerEntryRecord[]> {
    await this.get(runId);
    const rows = await this.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" }, select: ledgerSelect });
    return rows.map((row) => toLedgerEntry(row, runId));
  }

  async escalations(runId: string): Promise<EscalationRecord[]> {
    await this.get(runId);
    const rows = await this.db.escalation.findMany({ where: { runId }, orderBy: { createdAt: "asc" }, select: escalationSelect });
    return rows.map(toEscalationRecord);
  }
}
