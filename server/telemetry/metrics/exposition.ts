/**
 * The Prometheus text exposition format (version 0.0.4), written by hand: a few gauges and
 * histograms do not need a client library. https://prometheus.io/docs/instrumenting/exposition_formats/
 */
export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  readonly labels?: Labels;
  readonly value: number;
}

export interface HistogramSeries {
  readonly labels?: Labels;
  /** Upper bounds, ascending, without +Inf. */
  readonly buckets: readonly number[];
  /** Observations at or below each bound (not cumulative), then those above the last: buckets.length + 1 entries. */
  readonly counts: readonly number[];
  readonly sum: number;
}

export type Metric =
  | { readonly name: string; readonly help: string; readonly type: "gauge" | "counter"; readonly samples: readonly Sample[] }
  | { readonly name: string; readonly help: string; readonly type: "histogram"; readonly series: readonly HistogramSeries[] };

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const escapeHelp = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
const escapeLabel = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function formatLabels(labels: Labels | undefined, extra?: readonly [string, string]): string {
  const entries = Object.entries(labels ?? {});
  if (extra) entries.push([extra[0], extra[1]]);
  if (entries.length === 0) return "";
  for (const [name] of entries) if (!LABEL_NAME.test(name)) throw new Error(`Invalid Prometheus label name "${name}"`);
  return `{${entries.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(",")}}`;
}

/** The metrics as one exposition document; metric and label names are checked, label values escaped. */
export function writeExposition(metrics: readonly Metric[]): string {
  const lines: string[] = [];
  for (const metric of metrics) {
    if (!METRIC_NAME.test(metric.name)) throw new Error(`Invalid Prometheus metric name "${metric.name}"`);
    lines.push(`# HELP ${metric.name} ${escapeHelp(metric.help)}`, `# TYPE ${metric.name} ${metric.type}`);
    if (metric.type !== "histogram") {
      for (const sample of metric.samples) lines.push(`${metric.name}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
      continue;
    }
    for (const series of metric.series) {
      let cumulative = 0;
      series.buckets.forEach((bound, index) => {
        cumulative += series.counts[index] ?? 0;
        lines.push(`${metric.name}_bucket${formatLabels(series.labels, ["le", formatValue(bound)])} ${cumulative}`);
      });
      cumulative += series.counts[series.buckets.length] ?? 0;
      lines.push(`${metric.name}_bucket${formatLabels(series.labels, ["le", "+Inf"])} ${cumulative}`);
      lines.push(`${metric.name}_sum${formatLabels(series.labels)} ${formatValue(series.sum)}`);
      lines.push(`${metric.name}_count${formatLabels(series.labels)} ${cumulative}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
