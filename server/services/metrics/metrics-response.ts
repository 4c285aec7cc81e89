import { createHash, timingSafeEqual } from "node:crypto";
import { EXPOSITION_CONTENT_TYPE } from "../../telemetry/metrics/exposition";
import { metricsEnabled, type MetricsEnv } from "../../telemetry/metrics/metrics-settings";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function hasToken(request: Request, token: string): boolean {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header.slice(0, 1_024));
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

const text = (body: string, status: number, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers } });

/**
 * GET /metrics for Prometheus. Needs no session: a scraper has none. Off unless DUALSTATE_METRICS
 * is 1 (then 404, as if there were no such page); with DUALSTATE_METRICS_TOKEN the scrape must
 * send it as a bearer token. A failed read answers 503 without details (the server's log has them).
 */
export async function metricsResponse(request: Request, env: MetricsEnv, scrape: () => Promise<string>, log: (line: string) => void = console.error): Promise<Response> {
  if (!metricsEnabled(env)) return text("Not found\n", 404);
  if (env.DUALSTATE_METRICS_TOKEN !== undefined && !hasToken(request, env.DUALSTATE_METRICS_TOKEN)) {
    return text("This endpoint needs the metrics bearer token (DUALSTATE_METRICS_TOKEN)\n", 401, { "www-authenticate": 'Bearer realm="dualstate-metrics"' });
  }
  try {
    return text(await scrape(), 200, { "content-type": EXPOSITION_CONTENT_TYPE });
  } catch (error) {
    log(`metrics: the scrape failed: ${error instanceof Error ? error.message : String(error)}`);
    return text("Metrics are unavailable right now\n", 503);
  }
}
