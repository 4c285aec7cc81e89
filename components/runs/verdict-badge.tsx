import type { Verdict } from "./verdict";

const VERDICT_CLASSES: Record<Verdict, string> = {
  passed: "bg-emerald-100 text-emerald-700 ring-emerald-300",
  failed: "bg-red-100 text-red-700 ring-red-300",
  FATAL: "bg-red-700 text-white ring-red-800",
};

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return (
    <span
      data-testid="attempt-verdict"
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${VERDICT_CLASSES[verdict]}`}
    >
      {verdict}
    </span>
  );
}
