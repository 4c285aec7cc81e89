import { roundUsd } from "./call-cost";
import { formatTokens, formatUsd } from "./format-usage";

/** What crossing a run's budget does: suspend the run for a person to grant more, or fail it at once. */
export const BUDGET_ACTIONS = ["escalate", "fail"] as const;
export type BudgetAction = (typeof BUDGET_ACTIONS)[number];

/** A person's raise of a run's budget, kept with the budget so the history of grants stays visible. */
export interface BudgetGrant {
  readonly tokens: number;
  readonly usd: number;
  readonly by: string;
  readonly at: string;
}

/** A run's budget as Run.budget stores it: limits in tokens (prompt + completion) and/or US dollars. */
export interface RunBudget {
  readonly tokens: number | null;
  readonly usd: number | null;
  readonly onExceed: BudgetAction;
  readonly grants: readonly BudgetGrant[];
}

/** What a run has spent, as its totals say (Run.promptTokens, completionTokens, costUsd). */
export interface Spent {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
}

export const NO_SPENDING: Spent = { promptTokens: 0, completionTokens: 0, costUsd: 0 };

/** Bounds of what a document, a request or a grant may ask for. */
export const MAX_BUDGET_TOKENS = 1_000_000_000_000;
export const MAX_BUDGET_USD = 1_000_000;
/** A run that needed more grants than this has a runaway loop; a person should cancel it instead. */
export const MAX_BUDGET_GRANTS = 100;

export interface BudgetCrossing {
  readonly spentTokens: number;
  readonly tokenLimit: number | null;
  readonly spentUsd: number;
  readonly usdLimit: number | null;
  /** Which limits are reached. */
  readonly reached: readonly ("tokens" | "usd")[];
}

/** The limits in force: the budget's own plus every grant. */
export function effectiveLimits(budget: RunBudget): { tokens: number | null; usd: number | null } {
  const grantedTokens = budget.grants.reduce((sum, grant) => sum + grant.tokens, 0);
  const grantedUsd = budget.grants.reduce((sum, grant) => sum + grant.usd, 0);
  return {
    tokens: budget.tokens === null ? null : budget.tokens + grantedTokens,
    usd: budget.usd === null ? null : roundUsd(budget.usd + grantedUsd),
  };
}

/**
 * Checked before each model call: a run may call a model while it has spent less than each of its
 * limits. Reaching a limit (not only passing it) stops the next call, which would pass it.
 */
export function checkBudget(budget: RunBudget | null, spent: Spent): BudgetCrossing | null {
  if (!budget) return null;
  const limits = effectiveLimits(budget);
  const spentTokens = spent.promptTokens + spent.completionTokens;
  const reached: ("tokens" | "usd")[] = [];
  if (limits.tokens !== null && spentTokens >= limits.tokens) reached.push("tokens");
  if (limits.usd !== null && spent.costUsd >= limits.usd) reached.push("usd");
  if (reached.length === 0) return null;
  return { spentTokens, tokenLimit: limits.tokens, spentUsd: roundUsd(spent.costUsd), usdLimit: limits.usd, reached };
}

/** "spent 20,450 tokens of 20,000 and $0.0123 of $0.50" (only the limits the budget has). */
export function describeCrossing(crossing: BudgetCrossing): string {
  const parts: string[] = [];
  if (crossing.tokenLimit !== null) parts.push(`${formatTokens(crossing.spentTokens)} tokens of ${formatTokens(crossing.tokenLimit)}`);
  if (crossing.usdLimit !== null) parts.push(`${formatUsd(crossing.spentUsd)} of ${formatUsd(crossing.usdLimit)}`);
  return `The run reached its budget: spent ${parts.join(" and ")}`;
}


/** The budget with a grant added. The caller has checked the grant (checkGrant). */
export function withGrant(budget: RunBudget, grant: BudgetGrant): RunBudget {
  return { ...budget, grants: [...budget.grants, grant] };
}

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** A person's grant: at least one positive amount, each for a limit the budget has, within bounds. */
export function checkGrant(budget: RunBudget, grant: { tokens?: number; usd?: number }): FieldError[] {
  const errors: FieldError[] = [];
  const tokens = grant.tokens ?? 0;
  const usd = grant.usd ?? 0;
  if (!Number.isInteger(tokens) || tokens < 0 || tokens > MAX_BUDGET_TOKENS) errors.push({ field: "tokens", message: `must be a whole number of tokens from 0 to ${formatTokens(MAX_BUDGET_TOKENS)}` });
  else if (tokens > 0 && budget.tokens === null) errors.push({ field: "tokens", message: "this run's budget has no token limit to raise" });
  if (!Number.isFinite(usd) || usd < 0 || usd > MAX_BUDGET_USD) errors.push({ field: "usd", message: `must be an amount in US dollars from 0 to ${MAX_BUDGET_USD}` });
  else if (usd > 0 && budget.usd === null) errors.push({ field: "usd", message: "this run's budget has no money limit to raise" });
  if (errors.length === 0 && tokens === 0 && usd === 0) errors.push({ field: budget.tokens !== null ? "tokens" : "usd", message: "grant a positive amount" });
  if (budget.grants.length >= MAX_BUDGET_GRANTS) errors.push({ field: "tokens", message: `this run has had ${MAX_BUDGET_GRANTS} grants already; cancel it instead` });
  return errors;
}

/**
 * A budget as a workflow document or a start request writes it: `{ tokens?, usd?, on_exceed? }`
 * (`onExceed` is accepted too). Errors name the field under `path`.
 */
export function parseBudgetSpec(value: unknown, path = "budget"): { ok: true; budget: RunBudget } | { ok: false; errors: FieldError[] } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, errors: [{ field: path, message: "must be a mapping with tokens and/or usd, and on_exceed" }] };
  const record = value as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(record)) {
    if (!["tokens", "usd", "on_exceed", "onExceed"].includes(key)) errors.push({ field: `${path}.${key}`, message: "is not a budget field (tokens, usd, on_exceed)" });
  }
  const tokens = record.tokens;
  if (tokens !== undefined && tokens !== null && (typeof tokens !== "number" || !Number.isInteger(tokens) || tokens < 1 || tokens > MAX_BUDGET_TOKENS)) {
    errors.push({ field: `${path}.tokens`, message: `must be a whole number of tokens from 1 to ${formatTokens(MAX_BUDGET_TOKENS)}` });
  }
  const usd = record.usd;
  if (usd !== undefined && usd !== null && (typeof usd !== "number" || !Number.isFinite(usd) || usd <= 0 || usd > MAX_BUDGET_USD)) {
    errors.push({ field: `${path}.usd`, message: `must be an amount in US dollars above 0 and at most ${MAX_BUDGET_USD}` });
  }
  if ((tokens === undefined || tokens === null) && (usd === undefined || usd === null)) errors.push({ field: path, message: "needs tokens, usd or both" });
  const actionKey = record.on_exceed !== undefined ? "on_exceed" : "onExceed";
  const action = record[actionKey] ?? "escalate";
  if (typeof action !== "string" || !(BUDGET_ACTIONS as readonly string[]).includes(action)) errors.push({ field: `${path}.${actionKey}`, message: `must be one of ${BUDGET_ACTIONS.join(", ")}` });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, budget: { tokens: typeof tokens === "number" ? tokens : null, usd: typeof usd === "number" ? usd : null, onExceed: action as BudgetAction, grants: [] } };
}

/** Run.budget read back; anything that is not a budget this code wrote reads as none. */
export function readRunBudget(value: unknown): RunBudget | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const limit = (raw: unknown) => (typeof raw === "number" && Number.isFinite(raw) && raw > 0 ? raw : null);
  const tokens = limit(record.tokens);
  const usd = limit(record.usd);
  if (tokens === null && usd === null) return null;
  const onExceed: BudgetAction = record.onExceed === "fail" ? "fail" : "escalate";
  const grants = Array.isArray(record.grants) ? record.grants.slice(0, MAX_BUDGET_GRANTS).flatMap((raw): BudgetGrant[] => {
    if (typeof raw !== "object" || raw === null) return [];
    const grant = raw as Record<string, unknown>;
    const amount = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);
    return [{ tokens: amount(grant.tokens), usd: amount(grant.usd), by: typeof grant.by === "string" ? grant.by : "", at: typeof grant.at === "string" ? grant.at : "" }];
  }) : [];
  return { tokens, usd, onExceed, grants };
}

/**
 * The ledger key a budget escalation's decision is recorded under: one per crossing, numbered by
 * the grants the budget has had, so that after a grant a later crossing asks again under a new key
 * while a resumed run that was refused finds the refusal under the same one.
 */
export function budgetDecisionKey(budget: RunBudget): string {
  return `budget/${budget.grants.length + 1}`;
}
