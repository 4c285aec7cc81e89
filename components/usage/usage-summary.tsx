import { formatTokens, formatUsd } from "@/server/usage/format-usage";

interface Totals {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
}

/** "1,234 tokens · $0.0123", with the prompt/completion split on hover. */
export function UsageSummary({ totals, testId }: { totals: Totals; testId?: string }) {
  const tokens = totals.promptTokens + totals.completionTokens;
  return (
    <span className="text-xs text-slate-500" data-testid={testId} title={`${formatTokens(totals.promptTokens)} prompt + ${formatTokens(totals.completionTokens)} completion tokens`}>
      {formatTokens(tokens)} tokens · {formatUsd(totals.costUsd)}
    </span>
  );
}
