import { roundUsd } from "./call-cost";
import { callUsageOf } from "./call-usage";

/** Tokens and cost of some model calls (a run's, a step's, an attempt's). */
export interface UsageTotals {
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  calls: number;
}

/** One recorded call as the summary needs it: its ledger key and the usage and dollars recorded with it. */
export interface RecordedCallUsage {
  readonly callKey: string | null;
  readonly usage: unknown;
  readonly usd: unknown;
}

export interface UsageSummary {
  readonly total: UsageTotals;
  /** By step name (every visit of a step together). */
  readonly byStep: Record<string, UsageTotals>;
  /** By `<step>/attempt-<n>` (every visit's attempt n together), as the run page's attempt cards name them. */
  readonly byAttempt: Record<string, UsageTotals>;
}

const empty = (): UsageTotals => ({ promptTokens: 0, completionTokens: 0, costUsd: 0, calls: 0 });

/**
 * Where a call belongs, from its ledger key: `result:<step>[#<visit>]/attempt-<n>/…` (a generator's
 * call, a judge's, an agent's model turns under the attempt). Null for a key of no attempt.
 */
export function attemptOfCallKey(callKey: string): { step: string; attempt: number } | null {
  const key = callKey.startsWith("result:") ? callKey.slice("result:".length) : callKey;
  const match = /^([^/]+?)(?:#\d+)?\/attempt-(\d+)(?:\/|$)/.exec(key);
  if (!match) return null;
  return { step: match[1]!, attempt: Number(match[2]) };
}

/** Sums recorded calls by run, step and attempt. Pure; a call recorded without usage counts as a call that spent nothing. */
export function summariseCallUsage(rows: readonly RecordedCallUsage[]): UsageSummary {
  const total = empty();
  const byStep: Record<string, UsageTotals> = {};
  const byAttempt: Record<string, UsageTotals> = {};
  for (const row of rows) {
    const usage = callUsageOf({ usage: row.usage }) ?? { promptTokens: 0, completionTokens: 0 };
    const usd = typeof row.usd === "number" && Number.isFinite(row.usd) && row.usd > 0 ? row.usd : 0;
    const where = row.callKey ? attemptOfCallKey(row.callKey) : null;
    const buckets = [total];
    if (where) buckets.push((byStep[where.step] ??= empty()), (byAttempt[`${where.step}/attempt-${where.attempt}`] ??= empty()));
    for (const bucket of buckets) {
      bucket.promptTokens += usage.promptTokens;
      bucket.completionTokens += usage.completionTokens;
      bucket.costUsd = roundUsd(bucket.costUsd + usd);
      bucket.calls += 1;
    }
  }
  return { total, byStep, byAttempt };
}
