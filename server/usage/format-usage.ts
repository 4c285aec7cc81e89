/** How Dollars and tokens read everywhere they are shown: run pages, the CLI, experiments, the Metrics page. */

/** Exact token counts with thousands separators: 12,345. */
export function formatTokens(tokens: number): string {
  return tokens.toLocaleString("en-US");
}

/** Token counts where space is short (chart axes, summary tiles): 950, 12.3k, 4.5M. */
export function formatTokensCompact(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** Dollars with enough digits for a single cheap call to show as more than zero. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  if (Math.abs(usd) >= 1) return `$${usd.toFixed(2)}`;
  if (Math.abs(usd) < 0.0001) return "<$0.0001";
  // Four decimals, without trailing zeros past the cents: $0.50, $0.0123.
  return `$${usd.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}
