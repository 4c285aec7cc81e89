import type { Env } from "../env";

/** The OTEL_* settings the tracing reads (validated in env.ts; the exporter reads OTEL_EXPORTER_OTLP_HEADERS and the like itself). */
export type TracingEnv = Pick<Env, "OTEL_EXPORTER_OTLP_ENDPOINT" | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" | "OTEL_SDK_DISABLED" | "OTEL_TRACES_SAMPLER" | "OTEL_TRACES_SAMPLER_ARG">;

/** Traces are exported only when an OTLP endpoint is configured, and not disabled. */
export function tracingEnabled(env: TracingEnv): boolean {
  return env.OTEL_SDK_DISABLED !== "true" && (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined);
}

/** OTLP/HTTP's rule: a signal-specific endpoint is used as is; the general one gets /v1/traces appended. */
export function tracesUrl(env: TracingEnv): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
}
