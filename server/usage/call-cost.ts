import type { CallUsage } from "./call-usage";

/** A model's price as the admin's table lists it, in US dollars per million tokens. */
export interface ModelPrice {
  readonly model: string;
  readonly inputUsdPerMillion: number;
  readonly outputUsdPerMillion: number;
}

/**
 * What a call cost, as recorded with it: the price in force at the time of the call is copied
 * into the record, so a later edit of the table does not rewrite history. `priced: false` when
 * the table had no price for the model (the tokens still count; the money is unknown, counted 0).
 */
export type CallCost =
  | { readonly priced: true; readonly usd: number; readonly model: string; readonly inputUsdPerMillion: number; readonly outputUsdPerMillion: number }
  | { readonly priced: false; readonly usd: 0 };

export function costOfCall(usage: CallUsage, price: ModelPrice | null): CallCost {
  if (!price) return { priced: false, usd: 0 };
  const usd = (usage.promptTokens * price.inputUsdPerMillion + usage.completionTokens * price.outputUsdPerMillion) / 1_000_000;
  return { priced: true, usd: roundUsd(usd), model: price.model, inputUsdPerMillion: price.inputUsdPerMillion, outputUsdPerMillion: price.outputUsdPerMillion };
}

/** The first of `names` the table prices (names in order of preference, see callModelNames). */
export function priceFor(prices: readonly ModelPrice[], names: readonly string[]): ModelPrice | null {
  for (const name of names) {
    const price = prices.find((candidate) => candidate.model === name);
    if (price) return price;
  }
  return null;
}

/** Sums of floating-point dollars drift; a billionth of a dollar is far below any price's precision. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/** The recorded cost of a call, read back from its ledger payload (0 for a call recorded without one). */
export function recordedCostUsd(payload: unknown): number {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return 0;
  const cost = (payload as { cost?: unknown }).cost;
  if (typeof cost !== "object" || cost === null) return 0;
  const usd = (cost as { usd?: unknown }).usd;
  return typeof usd === "number" && Number.isFinite(usd) && usd > 0 ? usd : 0;
}
