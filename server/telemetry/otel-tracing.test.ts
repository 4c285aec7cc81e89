import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { until } from "../testing/until";
import { startRunTracing } from "./otel-tracing";
import { loadRunTracing } from "./tracing-from-env";
import { tracesUrl, tracingEnabled } from "./tracing-settings";
import { runSpanIdOf, traceIdOf } from "./run-trace-ids";

const turn = (runId: string) => ({ runId, epoch: 1, kind: "start", workerId: "w", retryCount: 0 });
const runCreatedAt = async () => undefined;

describe("tracing from the OTEL_* settings", () => {
  it("is off without an OTLP endpoint, or when the SDK is disabled: nothing is started", () => {
    expect(tracingEnabled({})).toBe(false);
    expect(loadRunTracing({}, { runCreatedAt })).toBeUndefined();
    expect(startRunTracing({}, { runCreatedAt })).toBeUndefined();
    expect(startRunTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }, { runCreatedAt })).toBeUndefined();
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
  });

  it("appends /v1/traces to the general endpoint and takes the traces endpoint as it is", () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toBe("http://collector:4318/v1/traces");
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/otlp" })).toBe("http://collector:4318/otlp/v1/traces");
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b:9999/traces" })).toBe("http://b:9999/traces");
  });

  it("a run's ids depend on its id only: every worker derives the same trace and root span", () => {
    expect(traceIdOf("run-1")).toMatch(/^[0-9a-f]{32}$/);
    expect(runSpanIdOf("run-1")).toMatch(/^[0-9a-f]{16}$/);
    expect(traceIdOf("run-1")).toBe(traceIdOf("run-1"));
    expect(traceIdOf("run-1")).not.toBe(traceIdOf("run-2"));
  });

  it("samples whole runs: with a ratio of 0 no turn of any run is recorded, with always_on every one is", async () => {
    for (const [sampler, expected] of [
      ["traceidratio", 0],
      ["parentbased_always_on", 2],
    ] as const) {
      const exporter = new InMemorySpanExporter();
      const tracing = startRunTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_TRACES_SAMPLER: sampler, OTEL_TRACES_SAMPLER_ARG: 0 }, { runCreatedAt, exporter })!;
      for (const runId of ["a", "b"]) await tracing.startTurn(turn(runId)).end("succeeded");
      await tracing.flush();
      const spans = exporter.getFinishedSpans();
      expect(spans.filter((span) => span.name === "dualstate.turn start")).toHaveLength(expected);
      expect(spans.filter((span) => span.name === "invoke_workflow run")).toHaveLength(expected);
      for (const span of spans.filter((item) => item.name === "invoke_workflow run")) {
        expect(span.spanContext().spanId).toBe(runSpanIdOf(String(span.attributes["dualstate.run.id"])));
        expect(span.spanContext().traceId).toBe(traceIdOf(String(span.attributes["dualstate.run.id"])));
      }
      await tracing.shutdown();
    }
  });

  it("says in the worker's log when the collector cannot be reached, and the turns go on", async () => {
    // The SDK reads its batch delay and export timeout from the environment: short, so the failed export comes soon.
    process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
    process.env.OTEL_EXPORTER_OTLP_TIMEOUT = "500";
    const lines: string[] = [];
    // Port 9 (discard) is closed here: the export is refused.
    const tracing = startRunTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" }, { runCreatedAt, log: (line) => lines.push(line) })!;
    for (const runId of ["a", "b", "c"]) await tracing.startTurn(turn(runId)).end("succeeded");
    const [line] = await until(async () => (lines.length > 0 ? lines : undefined), 20_000);
    expect(line).toMatch(/^tracing: .*ECONNREFUSED 127\.0\.0\.1:9/);
    expect(line).not.toContain("stack");
    await tracing.shutdown().catch(() => {});
  }, 30_000);
});
