import { formatUsd } from "@/server/usage/format-usage";

/** How the experiment pages write numbers. */
export const percent = (value: number | null | undefined, digits = 1) => (value === null || value === undefined ? "–" : `${(value * 100).toFixed(digits)}%`);
export const usd = (value: number | null | undefined) => (value === null || value === undefined ? "–" : formatUsd(value));
export const count = (value: number | null | undefined) => (value === null || value === undefined ? "–" : Math.round(value).toLocaleString("en-US"));
export function millis(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60_000) return `${(value / 1000).toFixed(1)} s`;
  return `${(value / 60_000).toFixed(1)} min`;
}
