import type { Env } from "../../env";

export type MetricsEnv = Pick<Env, "DUALSTATE_METRICS" | "DUALSTATE_METRICS_TOKEN">;

/** /metrics is served, and workers publish their durations, only when DUALSTATE_METRICS is 1 (or true). */
export function metricsEnabled(env: MetricsEnv): boolean {
  return env.DUALSTATE_METRICS === "1" || env.DUALSTATE_METRICS === "true";
}
