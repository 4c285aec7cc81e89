import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDoorbell } from "@/server/durable/doorbell";
import { openSqlClient } from "@/server/persistence/sql/open-sql-client";
import type { SqlClient } from "@/server/persistence/sql/sql-client";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { WorkerMetrics } from "@/server/telemetry/metrics/worker-metrics";
import { startMetricsPublisher, WORKER_METRICS_KEY_PREFIX, type MetricsPublisher } from "@/server/telemetry/metrics/worker-metrics-store";
import type { MetricsEnv } from "@/server/telemetry/metrics/metrics-settings";
import { workerTelemetry } from "@/server/telemetry/worker-telemetry";
import { until } from "@/server/testing/until";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { metricsResponse } from "./metrics-response";
import { scrapeMetrics } from "./scrape-metrics";

/** A real HTTP server in front of a fetch-style handler, as Next.js puts one in front of a route handler. */
async function serve(handler: (request: Request) => Promise<Response>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
    void handler(new Request(`http://127.0.0.1${incoming.url}`, { method: incoming.method, headers })).then(async (response) => {
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The value of one sample line ("name{labels}") in an exposition document; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const TOKEN = "a-scrape-token-of-some-length-42";

describe.each(TEST_PROVIDERS)("GET /metrics on %s", (provider) => {
  let fixture: DurableFixture;
  let http: { url: string; close(): Promise<void> };
  let env: MetricsEnv = {};
  let worker: RunWorker | undefined;
  let sql: SqlClient | undefined;
  let publisher: MetricsPublisher | undefined;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    http = await serve((request) => metricsResponse(request, env, () => scrapeMetrics(fixture.database.db)));
  });
  afterAll(async () => {
    await worker?.stop(1_000);
    await publisher?.stop();
    await sql?.close();
    await http?.close();
    await fixture?.dispose();
  });

  it("answers 404 while metrics are not enabled, whatever is sent", async () => {
    env = {};
    expect((await fetch(`${http.url}/metrics`)).status).toBe(404);
    env = { DUALSTATE_METRICS: "0", DUALSTATE_METRICS_TOKEN: TOKEN };
    expect((await fetch(`${http.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it("enabled without a token: the gauges in the text format, read from the database, without any session", async () => {
    env = { DUALSTATE_METRICS: "1" };
    const first = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache", generatorOverride: fixture.replay("tdd-lru-cache") });
    await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "run a command", generatorOverride: fixture.replay("sandbox-escalation") });
    const response = await fetch(`${http.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    expect(text).toContain("# TYPE dualstate_queue_depth gauge");
    expect(sample(text, 'dualstate_queue_depth{state="due"}')).toBe(2);
    expect(sample(text, 'dualstate_queue_depth{state="scheduled"}')).toBe(0);
    expect(sample(text, 'dualstate_runs{status="queued"}')).toBe(2);
    expect(sample(text, "dualstate_runs_in_flight")).toBe(0);
    expect(sample(text, 'dualstate_escalations_pending{kind="guard"}')).toBe(0);
    expect(sample(text, "dualstate_workers_reporting")).toBe(0);
    // Due a moment ago (by the database's clock, as the claim decides).
    expect(sample(text, "dualstate_queue_oldest_due_seconds")).toBeLessThan(300);

    // A retry's backoff: scheduled, not due; the other message has been due for ten minutes.
    await fixture.database.db.inboxMessage.updateMany({ where: { runId: first.runId }, data: { nextRetryAt: new Date(Date.now() + 3_600_000) } });
    await fixture.database.db.inboxMessage.updateMany({ where: { runId: { not: first.runId } }, data: { nextRetryAt: new Date(Date.now() - 600_000) } });
    const later = await (await fetch(`${http.url}/metrics`)).text();
    expect(sample(later, 'dualstate_queue_depth{state="due"}')).toBe(1);
    expect(sample(later, 'dualstate_queue_depth{state="scheduled"}')).toBe(1);
    expect(sample(later, "dualstate_queue_oldest_due_seconds")).toBeGreaterThan(590);
    expect(sample(later, "dualstate_queue_oldest_due_seconds")).toBeLessThan(900);
    await fixture.database.db.inboxMessage.updateMany({ where: { runId: first.runId }, data: { nextRetryAt: new Date() } });
  });

  it("with a token: 401 without it or with another, 200 with it", async () => {
    env = { DUALSTATE_METRICS: "1", DUALSTATE_METRICS_TOKEN: TOKEN };
    const missing = await fetch(`${http.url}/metrics`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="dualstate-metrics"');
    expect(await missing.text()).not.toContain("dualstate_");
    expect((await fetch(`${http.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${http.url}/metrics`, { headers: { authorization: TOKEN } })).status).toBe(401);
    const allowed = await fetch(`${http.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("dualstate_runs_in_flight");
  });

  it("shows the claim and guard durations a worker published (as one in another process does), and the pending escalation", async () => {
    env = { DUALSTATE_METRICS: "1" };
    const metrics = new WorkerMetrics();
    const telemetry = workerTelemetry({ metrics })!;
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile: {}, pollMs: 100, telemetry });
    worker.start();
    await until(async () => {
      const runs = await fixture.database.db.run.findMany({ select: { status: true } });
      return runs.every((run) => run.status === "succeeded" || run.status === "suspended") ? runs : undefined;
    }, 90_000);
    sql = openSqlClient(fixture.database.url);
    publisher = startMetricsPublisher(sql, worker.workerId, metrics, { intervalMs: 60_000 });
    await publisher.publish();

    const text = await (await fetch(`${http.url}/metrics`)).text();
    const at = (series: string, labels: string) => sample(text, `${series}{worker="${worker!.workerId}",${labels}}`);
    expect(sample(text, "dualstate_workers_reporting")).toBe(1);
    expect(sample(text, 'dualstate_escalations_pending{kind="guard"}')).toBe(1);
    expect(sample(text, 'dualstate_runs{status="suspended"}')).toBe(1);
    expect(sample(text, 'dualstate_queue_depth{state="due"}')).toBe(0);
    expect(at("dualstate_claim_duration_seconds_count", 'outcome="claimed"')).toBe(2);
    expect(at("dualstate_claim_duration_seconds_bucket", 'outcome="claimed",le="+Inf"')).toBe(2);
    // sandbox-escalation: one fatal verdict; tdd-lru-cache: a failed attempt and two passes.
    expect(at("dualstate_guard_duration_seconds_count", 'verdict="fatal"')).toBe(1);
    expect(at("dualstate_guard_duration_seconds_count", 'verdict="failed"')).toBe(1);
    expect(at("dualstate_guard_duration_seconds_count", 'verdict="passed"')).toBe(2);

    // A stopped worker takes its row with it; a malformed row is ignored, not an error.
    await fixture.database.db.setting.create({ data: { key: `${WORKER_METRICS_KEY_PREFIX}intruder`, value: '{"workerId":"x","at":"soon","claims":"many"}' } });
    await publisher.stop();
    publisher = undefined;
    const after = await fetch(`${http.url}/metrics`);
    expect(after.status).toBe(200);
    const afterText = await after.text();
    expect(sample(afterText, "dualstate_workers_reporting")).toBe(0);
    expect(afterText).not.toContain("_bucket{");
  }, 180_000);
});

describe("the route handler itself (app/api/metrics/route.ts), configured from the environment", () => {
  let database: TestDatabase;
  let http: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    // The route reads the process environment once (server/env.ts) and opens DATABASE_URL.
    process.env.DATABASE_URL = database.url;
    process.env.DUALSTATE_METRICS = "1";
    process.env.DUALSTATE_METRICS_TOKEN = TOKEN;
    const route = await import("@/app/api/metrics/route");
    http = await serve((request) => route.GET(request));
  });
  afterAll(async () => {
    await http?.close();
    const { getDb } = await import("@/server/persistence/db");
    await getDb().$disconnect();
    await database?.dispose();
  });

  it("serves the exposition to a bearer of the token and nothing to anyone else", async () => {
    expect((await fetch(`${http.url}/api/metrics`)).status).toBe(401);
    const response = await fetch(`${http.url}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(sample(text, 'dualstate_queue_depth{state="due"}')).toBe(0);
    expect(sample(text, 'dualstate_runs{status="queued"}')).toBe(0);
  });
});
