import type { RunTracing, RunTracingOptions } from "./otel-tracing";
import { tracingEnabled, type TracingEnv } from "./tracing-settings";

/**
 * The OpenTelemetry SDK, loaded and started only when tracing is configured: its modules take a
 * few hundred milliseconds to load, which a worker without tracing never pays.
 */
export function loadRunTracing(env: TracingEnv, options: RunTracingOptions, log?: (line: string) => void): Promise<RunTracing | undefined> | undefined {
  if (!tracingEnabled(env)) return undefined;
  // A tracing that cannot start must not stop the runs: they go on untraced, and the log says why.
  return import("./otel-tracing")
    .then((sdk) => sdk.startRunTracing(env, options))
    .catch((error: unknown) => {
      log?.(`tracing: not started (${error instanceof Error ? error.message : String(error)}); runs go on without traces`);
      return undefined;
    });
}
