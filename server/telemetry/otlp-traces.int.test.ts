import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/server/testing/fake-openai-server";
import { until } from "@/server/testing/until";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { tddModel } from "@/server/worker/testing/tdd-model";
import { startWorker, type StartedWorker } from "@/server/worker/worker-from-env";
import { runSpanIdOf, traceIdOf } from "./run-trace-ids";

/** A span as OTLP/HTTP JSON carries it (ids in hex, times in nanoseconds as strings). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
}

interface Receiver {
  readonly url: string;
  readonly spans: OtlpSpan[];
  readonly resources: Record<string, unknown>[];
  readonly contentTypes: string[];
  close(): Promise<void>;
}

/** A plain OTLP/HTTP trace receiver: decodes each JSON export request it is sent. */
async function startReceiver(): Promise<Receiver> {
  const spans: OtlpSpan[] = [];
  const resources: Record<string, unknown>[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end();
        return;
      }
      contentTypes.push(String(request.headers["content-type"]));
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: { resource?: { attributes?: unknown[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resourceSpans of body.resourceSpans) {
        resources.push(attributesOf(resourceSpans.resource?.attributes as OtlpSpan["attributes"]));
        for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, resources, contentTypes, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function attributesOf(attributes: OtlpSpan["attributes"]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) {
    const [kind, raw] = Object.entries(value)[0] ?? [];
    result[key] = kind === "intValue" ? Number(raw) : kind === "arrayValue" ? ((raw as { values?: Record<string, unknown>[] }).values ?? []).map((item) => Object.values(item)[0]) : raw;
  }
  return result;
}

const API_KEY = "sk-traced-worker-key-0123456789";
const SPAN_KIND_CLIENT = 3;
const STATUS_ERROR = 2;
/** Roomy: a loaded machine runs the python guards' sandbox slowly. */
const RUN_LIMIT_MS = 90_000;

describe.each(TEST_PROVIDERS)("a worker exports a run's spans over OTLP/HTTP, on %s", (provider) => {
  let fixture: DurableFixture;
  let model: FakeOpenAiServer;
  let receiver: Receiver;
  let worker: StartedWorker | undefined;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    receiver = await startReceiver();
    model = await startFakeOpenAiServer([], { apiKey: API_KEY });
    model.setResponder(tddModel());
  });
  afterAll(async () => {
    await worker?.stop(1_000);
    await model?.close();
    await receiver?.close();
    await fixture?.dispose();
  });

  it("one trace per run: the run, its turn, steps, attempts, chat calls and guards, with GenAI attributes and parent links", async () => {
    const env = parseEnv({
      DATABASE_URL: fixture.database.url,
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: API_KEY,
      OPENAI_MODEL: "coder-traced",
      OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/`,
    });
    worker = startWorker(env, { concurrency: 1 });
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache" });
    const run = await until(async () => {
      const found = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return ["succeeded", "failed"].includes(found.status) ? found : undefined;
    }, RUN_LIMIT_MS);
    expect(run.status).toBe("succeeded");
    // Stopping the worker shuts the SDK down, which exports what is still batched.
    await worker.stop(1_000);
    worker = undefined;

    expect(receiver.contentTypes.every((type) => type.startsWith("application/json"))).toBe(true);
    expect(receiver.resources[0]).toMatchObject({ "service.name": "dualstate" });
    const spans = receiver.spans;
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([traceIdOf(runId)]));
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const named = (name: string) => spans.filter((span) => span.name === name);
    const parentOf = (span: OtlpSpan) => byId.get(span.parentSpanId ?? "");
    const attrs = (span: OtlpSpan) => attributesOf(span.attributes);

    const [root, ...otherRoots] = named("invoke_workflow tdd-lru-cache");
    expect(otherRoots).toHaveLength(0);
    expect(root!.spanId).toBe(runSpanIdOf(runId));
    expect(root!.parentSpanId || undefined).toBeUndefined();
    expect(attrs(root!)).toMatchObject({ "gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": "tdd-lru-cache", "dualstate.run.id": runId, "dualstate.run.outcome": "succeeded" });
    // The run's span starts when the run was created, before its first turn.
    expect(BigInt(root!.startTimeUnixNano)).toBeLessThanOrEqual(BigInt(named("dualstate.turn start")[0]!.startTimeUnixNano));

    const turns = named("dualstate.turn start");
    expect(turns).toHaveLength(1);
    const turn = turns[0]!;
    expect(parentOf(turn)).toBe(root);
    expect(attrs(turn)).toMatchObject({ "dualstate.turn.outcome": "succeeded", "dualstate.workflow.name": "tdd-lru-cache", "dualstate.run.started": true, "dualstate.turn.epoch": 1 });

    const steps = spans.filter((span) => span.name.startsWith("dualstate.step "));
    expect(steps.map((span) => span.name)).toEqual(["dualstate.step write_tests", "dualstate.step implement"]);
    for (const step of steps) {
      expect(parentOf(step)).toBe(turn);
      expect(attrs(step)["dualstate.step.outcome"]).toBe("passed");
    }
    const implement = steps[1]!;
    expect(attrs(implement)["dualstate.guard.id"]).toBe("g_impl");

    // implement: attempt 1 fails its tdd guard, attempt 2 passes.
    const attempts = named("dualstate.attempt implement").sort((a, b) => Number(attrs(a)["dualstate.attempt"]) - Number(attrs(b)["dualstate.attempt"]));
    expect(attempts.map((span) => [attrs(span)["dualstate.attempt"], attrs(span)["dualstate.attempt.outcome"], parentOf(span)?.spanId])).toEqual([
      [1, "failed", implement.spanId],
      [2, "passed", implement.spanId],
    ]);
    expect(attempts[0]!.status?.code).toBe(STATUS_ERROR);

    const chats = named("chat coder-traced");
    expect(chats).toHaveLength(model.requests.length);
    expect(chats).toHaveLength(3);
    for (const chat of chats) {
      expect(chat.kind).toBe(SPAN_KIND_CLIENT);
      expect(parentOf(chat)?.name).toMatch(/^dualstate\.attempt /);
      const attributes = attrs(chat);
      expect(attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.system": "openai", "gen_ai.request.model": "coder-traced", "gen_ai.response.model": "coder-traced" });
      expect(attributes["gen_ai.usage.input_tokens"]).toEqual(expect.any(Number));
      expect(attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
      expect(attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
    }
    expect(new Set(chats.map((chat) => parentOf(chat)!.spanId))).toEqual(new Set([...attempts.map((span) => span.spanId), named("dualstate.attempt write_tests")[0]!.spanId]));

    const guards = spans.filter((span) => span.name.startsWith("dualstate.guard "));
    expect(guards.map((span) => [span.name, attrs(span)["dualstate.guard.verdict"], parentOf(span)?.name])).toEqual([
      ["dualstate.guard g_test", "passed", "dualstate.attempt write_tests"],
      ["dualstate.guard g_impl", "failed", "dualstate.attempt implement"],
      ["dualstate.guard g_impl", "passed", "dualstate.attempt implement"],
    ]);
    expect(attrs(guards[1]!)["dualstate.guard.feedback"]).toEqual(expect.stringMatching(/\S/));

    expectNested(spans);
  }, 3 * RUN_LIMIT_MS);

  it("a run suspended on an escalation and resumed by a decision: one trace, a span per turn, one run span once it ends", async () => {
    receiver.spans.length = 0;
    const env = parseEnv({ DATABASE_URL: fixture.database.url, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`, OTEL_TRACES_SAMPLER: "parentbased_always_on" });
    worker = startWorker(env, { concurrency: 1 });
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "run a command", generatorOverride: fixture.replay("sandbox-escalation") });
    const status = (wanted: string) => until(async () => ((await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } })).status === wanted ? true : undefined), RUN_LIMIT_MS);
    await status("suspended");
    const escalation = await fixture.database.db.escalation.findFirstOrThrow({ where: { runId } });
    expect((await fixture.store.resolveEscalation({ escalationId: escalation.id, decision: { decision: "approve", decidedBy: "ada" } })).ok).toBe(true);
    await status("succeeded");
    await worker.stop(1_000);
    worker = undefined;

    const spans = receiver.spans.filter((span) => span.traceId === traceIdOf(runId));
    expect(spans).toHaveLength(receiver.spans.length);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const roots = spans.filter((span) => span.name === "invoke_workflow sandbox-escalation");
    expect(roots.map((span) => [span.spanId, attributesOf(span.attributes)["dualstate.run.outcome"]])).toEqual([[runSpanIdOf(runId), "succeeded"]]);
    const turns = spans.filter((span) => span.name.startsWith("dualstate.turn "));
    expect(turns.map((span) => [span.name, span.parentSpanId, attributesOf(span.attributes)["dualstate.turn.outcome"]])).toEqual([
      ["dualstate.turn start", runSpanIdOf(runId), "suspended"],
      ["dualstate.turn resume", runSpanIdOf(runId), "succeeded"],
    ]);
    const steps = spans.filter((span) => span.name === "dualstate.step write_script");
    expect(steps.map((span) => [byId.get(span.parentSpanId!)?.name, attributesOf(span.attributes)["dualstate.step.outcome"], attributesOf(span.attributes)["dualstate.step.resumed"]])).toEqual([
      ["dualstate.turn start", "escalated", undefined],
      ["dualstate.turn resume", "passed", true],
    ]);
    const guard = spans.find((span) => span.name === "dualstate.guard g_script");
    expect(attributesOf(guard!.attributes)).toMatchObject({ "dualstate.guard.verdict": "fatal" });
    expect(guard!.status?.code).toBe(STATUS_ERROR);
    expectNested(spans);
  }, 3 * RUN_LIMIT_MS);
});

/** Every child lies within its parent's time. */
function expectNested(spans: readonly OtlpSpan[]): void {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  for (const span of spans) {
    const parent = byId.get(span.parentSpanId ?? "");
    if (!parent) continue;
    expect(BigInt(span.startTimeUnixNano), `${span.name} starts within ${parent.name}`).toBeGreaterThanOrEqual(BigInt(parent.startTimeUnixNano));
    expect(BigInt(span.endTimeUnixNano), `${span.name} ends within ${parent.name}`).toBeLessThanOrEqual(BigInt(parent.endTimeUnixNano));
  }
}
