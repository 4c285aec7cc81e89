import type { ReportOutcome, ToolReport, ToolWaitStatus } from "@/server/durable";
import type { Db } from "@/server/persistence/db";
import { durableStoreFor } from "../durable-store-for";

/** What a wait ended as when a report came too late to count (003: acknowledged without effect). */
export type ClosedWaitStatus = Exclude<ToolWaitStatus, "waiting">;

/**
 * The durable store's report operation over the same database as `db`: the one transaction that
 * moves a wait from waiting to reported, records the result in the run's ledger and queues the
 * report message (which resumes the run once its waiting set is complete).
 */
export function toolResultStore(db: Db): { reportToolResult(report: ToolReport): Promise<ReportOutcome> } {
  return durableStoreFor(db);
}
