import type { JsonObject } from "@/server/engine";
import type { Db } from "@/server/persistence/db";
import { durableStoreFor } from "../durable-store-for";

/** What a wait ended as when a report came too late to count (003: acknowledged without effect). */
export type ClosedWaitStatus = "reported" | "timed_out" | "cancelled";

/** DurableStore.reportToolResult's request (docs: /work/notes/issue18-design.md, "Durable store API"). */
export interface ToolResultReport {
  readonly runId: string;
  readonly callId: string;
  readonly result: JsonObject;
  readonly reportedBy: string;
  /** Written to the audit log in the report's transaction. */
  readonly auditActor?: { readonly id: string | null; readonly email: string };
}

export type ToolResultOutcome =
  | { readonly applied: true; readonly resumed: boolean }
  | { readonly applied: false; readonly status: ClosedWaitStatus; readonly reportedBy: string | null; readonly reportedAt: Date | string | null }
  | { readonly applied: false; readonly status: "unknown" };

interface ToolResultStore {
  reportToolResult(report: ToolResultReport): Promise<ToolResultOutcome>;
}

/**
 * The durable store's report operation over the same database as `db`: the one transaction that
 * moves a wait from waiting to reported, records the result in the run's ledger and queues the
 * report message (which resumes the run once its waiting set is complete).
 */
export function toolResultStore(db: Db): ToolResultStore {
  return durableStoreFor(db) as unknown as ToolResultStore;
}
