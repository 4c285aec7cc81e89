import { describe, expect, it } from "vitest";
import { LabelledHistogram } from "./histogram";
import { writeExposition } from "./exposition";

describe("the Prometheus text exposition writer", () => {
  it("writes HELP and TYPE lines, then one line per sample, with label values escaped", () => {
    const text = writeExposition([
      {
        name: "dualstate_runs",
        help: "Runs by status,\nwith a \\ in the help",
        type: "gauge",
        samples: [
          { labels: { status: "queued" }, value: 3 },
          { labels: { status: 'odd "quoted"\nvalue\\' }, value: 0.5 },
        ],
      },
      { name: "dualstate_workers_reporting", help: "Workers.", type: "gauge", samples: [{ value: 0 }] },
    ]);
    expect(text).toBe(
      [
        "# HELP dualstate_runs Runs by status,\\nwith a \\\\ in the help",
        "# TYPE dualstate_runs gauge",
        'dualstate_runs{status="queued"} 3',
        'dualstate_runs{status="odd \\"quoted\\"\\nvalue\\\\"} 0.5',
        "# HELP dualstate_workers_reporting Workers.",
        "# TYPE dualstate_workers_reporting gauge",
        "dualstate_workers_reporting 0",
        "",
      ].join("\n"),
    );
  });

  it("writes a histogram's buckets cumulatively, ending with +Inf, then its sum and count", () => {
    const histogram = new LabelledHistogram<"passed" | "fatal">("verdict", [0.1, 1, 10]);
    for (const seconds of [0.05, 0.1, 0.7, 42]) histogram.observe("passed", seconds);
    histogram.observe("fatal", 2);
    histogram.observe("fatal", Number.NaN);
    histogram.observe("fatal", -1);
    const text = writeExposition([{ name: "dualstate_guard_duration_seconds", help: "Guards.", type: "histogram", series: histogram.series({ worker: "w1" }) }]);
    expect(text.split("\n")).toEqual([
      "# HELP dualstate_guard_duration_seconds Guards.",
      "# TYPE dualstate_guard_duration_seconds histogram",
      'dualstate_guard_duration_seconds_bucket{worker="w1",verdict="passed",le="0.1"} 2',
      'dualstate_guard_duration_seconds_bucket{worker="w1",verdict="passed",le="1"} 3',
      'dualstate_guard_duration_seconds_bucket{worker="w1",verdict="passed",le="10"} 3',
      'dualstate_guard_duration_seconds_bucket{worker="w1",verdict="passed",le="+Inf"} 4',
      'dualstate_guard_duration_seconds_sum{worker="w1",verdict="passed"} 42.85',
      'dualstate_guard_duration_seconds_count{worker="w1",verdict="passed"} 4',
      'dualstate_guard_duration_seconds_bucket{worker="w1",verdict="fatal",le="0.1"} 0',
      'dualstate_guard_duration_seconds_bucket{worker="w1",verdict="fatal",le="1"} 0',
      'dualstate_guard_duration_seconds_bucket{worker="w1",verdict="fatal",le="10"} 1',
      'dualstate_guard_duration_seconds_bucket{worker="w1",verdict="fatal",le="+Inf"} 1',
      'dualstate_guard_duration_seconds_sum{worker="w1",verdict="fatal"} 2',
      'dualstate_guard_duration_seconds_count{worker="w1",verdict="fatal"} 1',
      "",
    ]);
  });

  it("refuses metric and label names Prometheus would reject", () => {
    expect(() => writeExposition([{ name: "dualstate-runs", help: "", type: "gauge", samples: [] }])).toThrow('Invalid Prometheus metric name "dualstate-runs"');
    expect(() => writeExposition([{ name: "ok", help: "", type: "gauge", samples: [{ labels: { "bad label": "x" }, value: 1 }] }])).toThrow('Invalid Prometheus label name "bad label"');
  });
});
