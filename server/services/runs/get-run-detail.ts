import { isTerminalRunStatus } from "@/server/durable/lifecycle";
import { z } from "zod";
import type { RunResultSummary } from "@/server/engine";
import type { Db, Prisma } from "@/server/persistence/db";
import type { EscalationStatus, RunStatus } from "@/prisma/generated/sqlite/client";
import { notFound } from "../errors";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { machineView, type MachineView } from "./machine-view";
import { attemptOrigins, cancellationOf, forkEditOf, type Cancellation } from "./ledger-facts";
import { budgetReviewOf, type BudgetReview } from "../usage/budget-review";
import { readRunUsage } from "../usage/run-usage";
import type { UsageTotals } from "@/server/usage/usage-by-attempt";
import { collectStepRuns, stepOrder, type LedgerFact, type StepRun } from "./step-runs";

/** The run page refetches every second: beyond this many entries it shows the newest ones only. */
export const LEDGER_ENTRY_LIMIT = 500;

const runHeadSelect = {
  id: true,
  status: true,
  epoch: true,
  activeTurnId: true,
  leaseOwner: true,
  leaseExpiresAt: true,
  resumeDeadline: true,
  watchdogNote: true,
  currentStep: true,
  currentState: true,
  attemptCount: true,
  specification: true,
  contextValues: true,
  finalResult: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  forkedFromRunId: true,
  forkedFromAttempt: true,
  waitingToolCount: true,
  promptTokens: true,
  completionTokens: true,
  costUsd: true,
  budget: true,
  workflowVersion: { select: { version: true, definition: true, workflow: { select: { id: true, name: true } } } },
} satisfies Prisma.RunSelect;

const attemptSelect = {
  id: true,
  stepName: true,
  guardId: true,
  attempt: true,
  passed: true,
  fatal: true,
  feedback: true,
  content: true,
  language: true,
  parentId: true,
  contentHash: true,
  createdAt: true,
} satisfies Prisma.ArtifactSelect;

const escalationSelect = {
  id: true,
  stepName: true,
  status: true,
  feedback: true,
  artifactId: true,
  expiresAt: true,
  createdAt: true,
  decision: true,
  decidedBy: true,
  decidedAt: true,
  comment: true,
} satisfies Prisma.EscalationSelect;

const ledgerEntrySelect = { seq: true, actor: true, type: true, epoch: true, createdAt: true, payload: true } satisfies Prisma.LedgerEntrySelect;

export type ContextValue = boolean | number | string;

export type RunAttempt = Prisma.ArtifactGetPayload<{ select: typeof attemptSelect }> & {
  /** The prompt the attempt was generated from; null for a reviewer's edit or a generator that recorded none. */
  prompt: string | null;
  /** The generator kind that made it ("replay" for a cassette); null for a reviewer's edit. */
  generator: string | null;
};

export interface RunEscalation {
  id: string;
  stepName: string;
  status: EscalationStatus;
  feedback: string;
  /** Null for a budget escalation. */
  artifactId: string | null;
  expiresAt: Date | null;
  createdAt: Date;
  /** approve, edit_and_approve, reject, reject_with_feedback or expired; null while pending. */
  decision: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  /** The reviewer's reason or feedback. */
  comment: string | null;
}

export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  byStep: Record<string, UsageTotals>;
  /** By `<step>/attempt-<n>`. */
  byAttempt: Record<string, UsageTotals>;
  budget: BudgetReview | null;
}

export interface RunLedgerEntry {
  seq: number;
  actor: string;
  type: string;
  epoch: number;
  createdAt: Date;
  payload: Record<string, unknown>;
}

export interface RunLedger {
  /** The newest LEDGER_ENTRY_LIMIT entries at most, in seq order. */
  entries: RunLedgerEntry[];
  total: number;
  /** How many older entries `entries` leaves off. */
  omitted: number;
  /** Over the whole ledger, omitted entries included. */
  summary: { countByType: Record<string, number>; modelCalls: number };
}

export interface RunDetail {
  id: string;
  status: RunStatus;
  epoch: number;
  activeTurnId: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  resumeDeadline: Date | null;
  watchdogNote: string | null;
  /** Tool calls (a person, a sub-run, another system) the suspended run waits for; the run page reads them from run.execution. */
  waitingToolCount: number;
  currentStep: string | null;
  currentState: string | null;
  attemptCount: number;
  /** Null only for runs whose workflow version is no longer linked. */
  workflow: { id: string; name: string; version: number } | null;
  specification: string;
  contextValues: Record<string, ContextValue>;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  finalResult: RunResultSummary | null;
  /** Every generation attempt with its guard's verdict, oldest first. */
  attempts: RunAttempt[];
  /** Every run of an llm, transition or code step, in order. */
  stepRuns: StepRun[];
  /** The steps the run started, in the order of their first start. */
  stepOrder: string[];
  /** Who cancelled the run and when; null unless it was cancelled. */
  cancellation: Cancellation | null;
  escalations: RunEscalation[];
  /** Tokens and cost of the run's model calls (its totals), by step and by attempt, and its budget. */
  usage: RunUsage;
  ledger: RunLedger;
  /** The pinned version's state machine and the path the run took through it. */
  machine: MachineView | null;
  /** For a fork: the run and the attempt ("implement/attempt-2") it was started from, and the edit that made it. */
  forkedFrom: { runId: string; attemptKey: string; feedback: string | null; prompt: string | null; forkedBy: string | null } | null;
}

// Json columns are parsed on the way out (docs/style.md rule 9): a malformed row fails here, by name.
const resultSummarySchema = z.object({
  status: z.enum(["success", "failed", "escalation"]),
  artifactIds: z.record(z.string(), z.string()),
  failedStep: z.string().nullable(),
  reason: z.string().nullable(),
  provenance: z.array(z.object({ artifactId: z.string().nullable(), feedback: z.string() })),
  escalation: z.object({ artifactId: z.string(), feedback: z.string() }).nullable(),
}) satisfies z.ZodType<RunResultSummary>;

const contextValuesSchema = z.record(z.string(), z.union([z.boolean(), z.number(), z.string()]));
const payloadSchema = z.record(z.string(), z.unknown());

function parseColumn<T>(schema: z.ZodType<T>, value: unknown, column: string, id: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new Error(`Stored ${column} of ${id} is malformed: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
}

/** A model call is an action_call step whose called policy is the model (a tool call names the tool). */
function isModelCall(entry: { type: string; payload: unknown }): boolean {
  return entry.type === "action_call" && (entry.payload as { policy?: unknown } | null)?.policy === "model";
}

async function readLedger(db: Db, runId: string): Promise<RunLedger> {
  const [newestFirst, byType] = await Promise.all([
    db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "desc" }, take: LEDGER_ENTRY_LIMIT, select: ledgerEntrySelect }),
    db.ledgerEntry.groupBy({ by: ["type"], where: { runId }, _count: { _all: true }, orderBy: { type: "asc" } }),
  ]);
  const entries = newestFirst.reverse().map((row) => ({ ...row, payload: parseColumn(payloadSchema, row.payload, "LedgerEntry.payload", `${runId}#${row.seq}`) }));
  const countByType = Object.fromEntries(byType.map((group) => [group.type, group._count._all]));
  const total = byType.reduce((sum, group) => sum + group._count._all, 0);

  // Calls among the omitted entries are counted from their payloads, read only when some were left off.
  const oldestShown = entries[0]?.seq;
  const olderCalls =
    total > entries.length && oldestShown !== undefined
      ? await db.ledgerEntry.findMany({ where: { runId, type: "action_call", seq: { lt: oldestShown } }, select: { type: true, payload: true } })
      : [];
  const modelCalls = [...entries, ...olderCalls].filter(isModelCall).length;

  return { entries, total, omitted: Math.max(0, total - entries.length), summary: { countByType, modelCalls } };
}

/** The ledger entries the run page reads in full, whatever the ledger's length. */
const MILESTONE_TYPES = ["step.started", "step.completed", "step.attempt_failed", "step.exhausted", "generator.completed", "run.finished", "run.suspended", "run.cancelled", "run.forked"];

/** Versions stored before workflow documents (issue 5) hold a plain step list: no machine to draw. */
function isMachineDefinition(definition: unknown): definition is WorkflowDefinition {
  const machine = (definition as { state_machine?: { states?: unknown; transitions?: unknown } } | null)?.state_machine;
  return Array.isArray(machine?.states) && Array.isArray(machine?.transitions) && Array.isArray((definition as { steps?: unknown }).steps);
}

/** Everything the run page shows about one run. Fails with NOT_FOUND for an unknown id. */
export async function getRunDetail(db: Db, input: { id: string }): Promise<RunDetail> {
  const run = await db.run.findUnique({ where: { id: input.id }, select: runHeadSelect });
  if (!run) throw notFound("Run", input.id);

  const { workflowVersion, contextValues, finalResult, forkedFromRunId, forkedFromAttempt, promptTokens, completionTokens, costUsd, budget, ...head } = run;
  const [attempts, escalations, ledger, milestoneRows, calls] = await Promise.all([
    // attempt breaks ties between artifacts stored within the same millisecond.
    // An action pair's attempts; the other steps' outputs are read from their step runs.
    db.artifact.findMany({ where: { runId: run.id, stepKind: "action_pair" }, orderBy: [{ createdAt: "asc" }, { attempt: "asc" }], select: attemptSelect }),
    db.escalation.findMany({ where: { runId: run.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: escalationSelect }),
    readLedger(db, run.id),
    // The path through the machine, the runs of steps without attempts, each attempt's prompt, and how the run was forked or cancelled.
    db.ledgerEntry.findMany({ where: { runId: run.id, type: { in: MILESTONE_TYPES } }, orderBy: { seq: "asc" }, select: { seq: true, type: true, createdAt: true, payload: true } }),
    readRunUsage(db, run.id),
  ]);
  const milestones: LedgerFact[] = milestoneRows.map((row) => ({ ...row, payload: parseColumn(payloadSchema, row.payload, "LedgerEntry.payload", `${run.id}#${row.seq}`) }));
  const pathFacts = milestones.filter((entry) => entry.type === "step.started" || entry.type === "run.finished" || entry.type === "run.suspended");
  const startedSteps = pathFacts.flatMap((entry) => (entry.type === "step.started" ? [{ step: String(entry.payload.step), state: typeof entry.payload.state === "string" ? entry.payload.state : null }] : []));
  // Only an ending after the last step start says where the run is: a resumed run has moved on since.
  const last = pathFacts.at(-1);
  const endState = last && last.type !== "step.started" && typeof last.payload.finalState === "string" ? last.payload.finalState : null;
  const origins = attemptOrigins(milestones);
  const parsedResult = finalResult === null ? null : parseColumn(resultSummarySchema, finalResult, "Run.finalResult", run.id);
  const ended = isTerminalRunStatus(run.status);
  const forkEdit = forkEditOf(milestones);

  return {
    ...head,
    workflow: workflowVersion ? { id: workflowVersion.workflow.id, name: workflowVersion.workflow.name, version: workflowVersion.version } : null,
    contextValues: contextValues === null ? {} : parseColumn(contextValuesSchema, contextValues, "Run.contextValues", run.id),
    finalResult: parsedResult,
    attempts: attempts.map((attempt) => ({ ...attempt, prompt: origins.get(attempt.id)?.prompt ?? null, generator: origins.get(attempt.id)?.generator ?? null })),
    stepRuns: collectStepRuns(milestones, ended ? { failedStep: parsedResult?.failedStep ?? null, reason: parsedResult?.reason ?? null } : null),
    stepOrder: stepOrder(milestones),
    cancellation: run.status === "cancelled" ? cancellationOf(milestones) : null,
    escalations,
    usage: {
      promptTokens,
      completionTokens,
      costUsd,
      byStep: calls.byStep,
      byAttempt: calls.byAttempt,
      budget: budget === null ? null : budgetReviewOf(budget, { promptTokens, completionTokens, costUsd }),
    },
    ledger,
    forkedFrom: forkedFromRunId && forkedFromAttempt ? { runId: forkedFromRunId, attemptKey: forkedFromAttempt, feedback: forkEdit?.feedback ?? null, prompt: forkEdit?.prompt ?? null, forkedBy: forkEdit?.forkedBy ?? null } : null,
    machine: workflowVersion && isMachineDefinition(workflowVersion.definition) ? machineView(workflowVersion.definition, startedSteps, endState, null) : null,
  };
}
