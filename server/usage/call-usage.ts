/**
 * The tokens of one recorded model call, read from its ledger payload (a ChatReply as
 * server/generators/chat/recorded-reply.ts stores it, or a judge's answer). The payload came from
 * an endpoint, so nothing is trusted: a field that is not a non-negative count reads as 0, and
 * counts are capped so that a hostile reply cannot overflow a run's totals.
 */
export interface CallUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** No real call reports more; a larger number is an endpoint's nonsense, not spending. */
export const MAX_TOKENS_PER_CALL = 100_000_000;

export function callUsageOf(payload: unknown): CallUsage | null {
  if (!isRecord(payload) || !isRecord(payload.usage)) return null;
  const usage = payload.usage;
  const promptTokens = count(usage.promptTokens);
  const completionTokens = count(usage.completionTokens);
  if (promptTokens === 0 && completionTokens === 0) return null;
  return { promptTokens, completionTokens };
}

/** The model names a call's price may be listed under: as the endpoint reported it, then as it was asked for. */
export function callModelNames(requestPayload: unknown, resultPayload: unknown): string[] {
  const names: string[] = [];
  for (const payload of [resultPayload, requestPayload]) {
    if (isRecord(payload) && typeof payload.model === "string" && payload.model !== "" && payload.model.length <= 200 && !names.includes(payload.model)) names.push(payload.model);
  }
  return names;
}

function count(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return 0;
  return Math.min(Math.floor(value), MAX_TOKENS_PER_CALL);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
