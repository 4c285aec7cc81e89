import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import { metricsResponse } from "@/server/services/metrics/metrics-response";
import { scrapeMetrics } from "@/server/services/metrics/scrape-metrics";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Prometheus metrics, also at /metrics (next.config.ts); see docs/observability.md. */
export function GET(request: Request): Promise<Response> {
  return metricsResponse(request, getEnv(), () => scrapeMetrics(getDb()));
}
