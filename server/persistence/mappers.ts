/**
 * Row ↔ domain mapping. Json columns are parsed with zod on the way out, so a corrupt or
 * hand-edited row fails loudly here, naming the column, instead of deep inside the engine.
 */
import { z } from "zod";
import {
  RUN_STATUSES,
  storedStepKind,
  type EscalationRecord,
  type LedgerEntryRecord,
  type RunRecord,
  type RunResultSummary,
  type StoredArtifact,
  type WorkflowState,
} from "../engine";
import type { Prisma } from "./db";

const workflowStateSchema = z.object({
  guards: z.record(z.string(), z.boolean()),
  artifactIds: z.record(z.string(), z.string()),
});

const resultSummarySchema = z.object({
  status: z.enum(["success", "failed", "escalation"]),
  artifactIds: z.record(z.string(), z.string()),
  failedStep: z.string().nullable(),
  reason: z.string().nullable(),
  provenance: z.array(z.object({ artifactId: z.string().nullable(), feedback: z.string() })),
  escalation: z.object({ artifactId: z.string(), feedback: z.string() }).nullable(),
});

const payloadSchema = z.record(z.string(), z.unknown());

function parseColumn<T>(schema: z.ZodType<T>, value: unknown, column: string, id: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new Error(`Stored ${column} of ${id} is malformed: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
}

export function parseWorkflowState(value: unknown, runId: string): WorkflowState {
  return parseColumn(workflowStateSchema, value, "Run.workflowState", runId);
}

export const runSelect = {
  id: true,
  workflowVersionId: true,
  specification: true,
  status: true,
  workflowState: true,
  currentStep: true,
  attemptCount: true,
  stepsCompleted: true,
  finalResult: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} satisfies Prisma.RunSelect;

export function toRunRecord(row: Prisma.RunGetPayload<{ select: typeof runSelect }>): RunRecord {
  return {
    id: row.id,
    workflowVersionId: row.workflowVersionId,
    specification: row.specification,
    status: z.enum(RUN_STATUSES).parse(row.status),
    workflowState: parseWorkflowState(row.workflowState, row.id),
    currentStep: row.currentStep,
    attemptCount: row.attemptCount,
    stepsCompleted: row.stepsCompleted,
    result: row.finalResult === null ? null : (parseColumn(resultSummarySchema, row.finalResult, "Run.finalResult", row.id) as RunResultSummary),
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

export const artifactSelect = {
  id: true,
  stepName: true,
  stepKind: true,
  guardId: true,
  attempt: true,
  parentId: true,
  content: true,
  contentHash: true,
  language: true,
  passed: true,
  fatal: true,
  feedback: true,
  dependencies: { select: { name: true, dependencyId: true } },
} satisfies Prisma.ArtifactSelect;

export function toStoredArtifact(row: Prisma.ArtifactGetPayload<{ select: typeof artifactSelect }>): StoredArtifact {
  return {
    artifact: Object.freeze({ id: row.id, content: row.content, version: row.attempt, parentId: row.parentId, contentHash: row.contentHash }),
    stepName: row.stepName,
    stepKind: storedStepKind(row.stepKind),
    guardId: row.guardId,
    result: Object.freeze({ passed: row.passed, fatal: row.fatal, feedback: row.feedback }),
    dependencyIds: Object.fromEntries(row.dependencies.map((dep) => [dep.name, dep.dependencyId])),
    language: row.language,
  };
}

export const ledgerSelect = { seq: true, actor: true, type: true, payload: true, createdAt: true } satisfies Prisma.LedgerEntrySelect;

export function toLedgerEntry(row: Prisma.LedgerEntryGetPayload<{ select: typeof ledgerSelect }>, runId: string): LedgerEntryRecord {
  return {
    seq: row.seq,
    actor: row.actor,
    type: row.type,
    payload: parseColumn(payloadSchema, row.payload, "LedgerEntry.payload", `${runId}#${row.seq}`),
    createdAt: row.createdAt,
  };
}

export const escalationSelect = {
  id: true,
  runId: true,
  kind: true,
  artifactId: true,
  stepName: true,
  guardId: true,
  feedback: true,
  status: true,
  createdAt: true,
} satisfies Prisma.EscalationSelect;

export function toEscalationRecord(row: Prisma.EscalationGetPayload<{ select: typeof escalationSelect }>): EscalationRecord {
  return { ...row };
}

/** Prisma's Json input type for a plain serialisable value. */
export function asJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}
