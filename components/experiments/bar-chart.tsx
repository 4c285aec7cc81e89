/** One group of bars: a metric, its baseline and candidate values (0..max). */
export interface BarGroup {
  readonly label: string;
  readonly baseline: number | null;
  readonly candidate: number | null;
  readonly format: (value: number) => string;
}

const WIDTH = 520;
const ROW = 44;
const LABEL = 150;
const BAR = 14;

/**
 * Horizontal paired bars, baseline over candidate, each group scaled to its own largest value
 * (the metrics have different units). Plain SVG: two colours and text, no chart library needed.
 */
export function PairedBarChart({ title, groups }: { title: string; groups: readonly BarGroup[] }) {
  const height = groups.length * ROW + 24;
  const span = WIDTH - LABEL - 70;
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium text-slate-800">{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} className="w-full max-w-xl" role="img" aria-label={title}>
        {groups.map((group, index) => {
          const top = index * ROW;
          const max = Math.max(group.baseline ?? 0, group.candidate ?? 0) || 1;
          const bar = (value: number | null, offset: number, fill: string, who: string) => (
            <g>
              <rect x={LABEL} y={top + offset} width={value === null ? 0 : Math.max(1, (value / max) * span)} height={BAR} fill={fill}>
                <title>{`${group.label}, ${who}: ${value === null ? "no value" : group.format(value)}`}</title>
              </rect>
              <text x={LABEL + (value === null ? 0 : (value / max) * span) + 4} y={top + offset + BAR - 3} fontSize="11" fill="#334155">
                {value === null ? "–" : group.format(value)}
              </text>
            </g>
          );
          return (
            <g key={group.label}>
              <text x={0} y={top + 20} fontSize="12" fill="#0f172a">
                {group.label}
              </text>
              {bar(group.baseline, 2, "#94a3b8", "baseline")}
              {bar(group.candidate, 2 + BAR + 2, "#0f172a", "candidate")}
            </g>
          );
        })}
        <g transform={`translate(${LABEL}, ${height - 12})`} fontSize="11" fill="#334155">
          <rect width="10" height="10" y="-9" fill="#94a3b8" />
          <text x="14">baseline</text>
          <rect x="80" width="10" height="10" y="-9" fill="#0f172a" />
          <text x="94">candidate</text>
        </g>
      </svg>
    </figure>
  );
}
