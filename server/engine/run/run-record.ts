import type { WorkflowState } from "../domain/workflow-state";
import type { WorkflowStatus } from "../domain/workflow-result";

/** A run's head (003 section 2). succeeded, failed, escalated and cancelled are terminal. */
export const RUN_STATUSES = ["queued", "dispatched", "running", "suspended", "succeeded", "failed", "escalated", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The stored form of a WorkflowResult: ids instead of contents, the artifacts themselves live in the DAG. */
export interface RunResultSummary {
  readonly status: WorkflowStatus;
  /** Guard id → id of the artifact that satisfied it. */
  readonly artifactIds: Readonly<Record<string, string>>;
  readonly failedStep: string | null;
  readonly reason: string | null;
  readonly provenance: readonly { readonly artifactId: string | null; readonly feedback: string }[];
  readonly escalation: { readonly artifactId: string; readonly feedback: string } | null;
}

export interface RunRecord {
  readonly id: string;
  readonly workflowVersionId: string | null;
  readonly specification: string;
  readonly status: RunStatus;
  readonly workflowState: WorkflowState;
  readonly currentStep: string | null;
  readonly attemptCount: number;
  readonly stepsCompleted: number;
  readonly result: RunResultSummary | null;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
}

/**
 * Who wrote a ledger entry: "engine", "generator", "guard", "human" for engine events, and for
 * generator calls (002) the caller ("assistant") or the called policy ("model", a tool's name).
 */
export type LedgerActor = string;

export interface LedgerEntryRecord {
  /** 1, 2, 3... per run, without gaps. */
  readonly seq: number;
  readonly actor: LedgerActor;
  readonly type: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly createdAt: Date;
}

export type EscalationStatus = "pending" | "approved" | "rejected" | "expired" | "cancelled";

export interface EscalationRecord {
  readonly id: string;
  readonly runId: string;
  /** "guard" or "budget" (server/durable/lifecycle.ts ESCALATION_KINDS). */
  readonly kind?: string;
  /** Null for a budget escalation, which decides on more budget rather than on an attempt. */
  readonly artifactId: string | null;
  readonly stepName: string;
  readonly guardId: string;
  readonly feedback: string;
  readonly status: EscalationStatus;
  readonly createdAt: Date;
}
