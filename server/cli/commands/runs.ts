import type { Env } from "../../env";
import { createDb, type Db } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { isServiceError } from "../../services/errors";
import { describeRun, listRunHeads, type RunHead, type RunUsageReport } from "../../services/runs/describe-run";
import { formatTokens, formatUsd } from "../../usage/format-usage";
import { executionLines } from "./runs-show-execution";
import { EXIT, type CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { UsageError } from "../usage-error";
import { terminalJson } from "../terminal-text";

export const LIST_OPTIONS = { json: { type: "boolean" }, limit: { type: "string" } } as const;
export const SHOW_OPTIONS = { json: { type: "boolean" } } as const;

function headLine(run: RunHead): string {
  const lease = run.leaseOwner ? ` lease ${run.leaseOwner} until ${run.leaseExpiresAt?.toISOString()}` : "";
  const waiting = run.resumeDeadline ? ` waiting until ${run.resumeDeadline.toISOString()}` : "";
  return `${run.id}  ${run.status.padEnd(10)} epoch ${run.epoch}${lease}${waiting}  ${run.workflow ?? "?"}  ${run.createdAt.toISOString()}`;
}

async function withDb<T>(env: Env, work: (db: Db) => Promise<T>): Promise<T> {
  await migrateDatabase(env.DATABASE_URL);
  const db = createDb(env.DATABASE_URL);
  try {
    return await work(db);
  } finally {
    await db.$disconnect();
  }
}

/**
 * `dualstate runs list [--json] [--limit N]` and `dualstate runs show <id> [--json]`: runs with
 * their head (status, epoch, lease), final result and a ledger summary; `dualstate runs report`
 * reports an external tool's result (runs/report.ts).
 */
export async function runsCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "list") {
    const { values, positionals } = parseCommandLine(rest, LIST_OPTIONS, "runs list");
    if (positionals.length > 0) throw new UsageError(`dualstate runs list: unexpected argument "${positionals[0]}"`);
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`dualstate runs list: --limit must be a whole number from 1 to 1000, got "${values.limit}"`);
    const runs = await withDb(env, (db) => listRunHeads(db, limit));
    if (values.json) io.out(terminalJson(runs));
    else io.out(runs.length === 0 ? "No runs yet." : runs.map(headLine).join("\n"));
    return EXIT.ok;
  }
  if (subcommand === "show") {
    const { values, positionals } = parseCommandLine(rest, SHOW_OPTIONS, "runs show");
    const [id, ...extra] = positionals;
    if (id === undefined) throw new UsageError("dualstate runs show: expected <run id>");
    if (extra.length > 0) throw new UsageError(`dualstate runs show: unexpected argument "${extra[0]}"`);
    try {
      const run = await withDb(env, (db) => describeRun(db, id));
      if (values.json) {
        io.out(terminalJson(run));
        return EXIT.ok;
      }
      const lines = [headLine(run.head), `  specification: ${run.head.specification.replace(/\s+/g, " ").slice(0, 200)}`];
      if (run.head.watchdogNote) lines.push(`  watchdog: ${run.head.watchdogNote}`);
      lines.push(`  result: ${run.report.status}${run.report.finalState ? ` in state "${run.report.finalState}"` : ""}${run.report.reason ? `: ${run.report.reason}` : ""}`);
      if (run.report.escalation) lines.push(`  escalation at ${run.report.escalation.step}: ${run.report.escalation.feedback}`);
      lines.push(`  ledger: ${run.ledger.entries} entries, ${run.ledger.modelCalls} model calls; ${Object.entries(run.ledger.byType).map(([type, count]) => `${type} ${count}`).join(", ")}`);
      lines.push(...usageLines(run.usage));
      for (const attempt of run.report.attempts) {
        const used = run.usage.byAttempt[`${attempt.step}/attempt-${attempt.attempt}`];
        lines.push(`  ${attempt.step} attempt ${attempt.attempt}: ${attempt.passed ? "passed" : attempt.fatal ? "FATAL" : "failed"}${used ? ` (${usageText(used)})` : ""}`);
      }
      lines.push(...executionLines(run.execution));
      io.out(lines.join("\n"));
      return EXIT.ok;
    } catch (error) {
      if (isServiceError(error) && error.code === "NOT_FOUND") {
        io.err(`dualstate runs show: ${error.message}`);
        return EXIT.failed;
      }
      throw error;
    }
  }
  if (subcommand === "report") {
    try {
      return await (await import("./runs/report")).reportCommand(rest, env, io);
    } catch (error) {
      // Unknown run or call, a person's question, a result the schema refuses: said in one line.
      if (isServiceError(error)) {
        io.err(`dualstate runs report: ${error.message}`);
        return EXIT.failed;
      }
      throw error;
    }
  }
  throw new UsageError(subcommand ? `dualstate runs: unknown subcommand "${subcommand}" (list, show, report)` : "dualstate runs: missing subcommand (list, show, report)");
}

/** "1,234 tokens (100 prompt, 1,134 completion), $0.0123" */
function usageText(totals: { promptTokens: number; completionTokens: number; costUsd: number }): string {
  return `${formatTokens(totals.promptTokens + totals.completionTokens)} tokens (${formatTokens(totals.promptTokens)} prompt, ${formatTokens(totals.completionTokens)} completion), ${formatUsd(totals.costUsd)}`;
}

/** The run's usage and cost, each step's, and its budget. */
function usageLines(usage: RunUsageReport): string[] {
  const lines = [`  usage: ${usageText(usage)}`];
  for (const [step, totals] of Object.entries(usage.byStep)) lines.push(`    ${step}: ${usageText(totals)}`);
  const budget = usage.budget;
  if (budget) {
    const limits = [budget.tokenLimit !== null ? `${formatTokens(budget.spentTokens)} of ${formatTokens(budget.tokenLimit)} tokens` : "", budget.usdLimit !== null ? `${formatUsd(budget.spentUsd)} of ${formatUsd(budget.usdLimit)}` : ""].filter(Boolean);
    lines.push(`  budget: ${limits.join(", ")}; on exceed: ${budget.onExceed}${budget.grants.length > 0 ? `; ${budget.grants.length} grant(s)` : ""}`);
  }
  return lines;
}
