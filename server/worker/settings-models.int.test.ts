import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { createModelEndpoint, deleteModelEndpoint } from "@/server/services/model-endpoints/save-model-endpoint";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/server/testing/fake-openai-server";
import { until } from "@/server/testing/until";
import { createDurableFixture, type DurableFixture } from "./testing/durable-fixture";
import { tddModel } from "./testing/tdd-model";
import { startWorker, type StartedWorker } from "./worker-from-env";

const API_KEY = "sk-worker-reads-this-sealed-key-42";
const ADMIN = { id: "admin", email: "admin@example.com", role: "admin", via: "session" } as const;

describe.each(TEST_PROVIDERS)("a worker process calls the endpoint configured in Settings, on %s", (provider) => {
  let fixture: DurableFixture;
  let model: FakeOpenAiServer;
  let worker: StartedWorker;
  // No OPENAI_* at all: the only model is the one stored in the database, key sealed.
  let env: ReturnType<typeof parseEnv>;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    env = parseEnv({ DATABASE_URL: fixture.database.url, DUALSTATE_SECRET_KEY: "a-worker-test-secret-of-at-least-32-characters" });
    model = await startFakeOpenAiServer([], { apiKey: API_KEY });
    model.setResponder(tddModel());
    await createModelEndpoint(fixture.database.db, { name: "settings-model", baseUrl: model.baseURL, apiKey: API_KEY, defaultModel: "coder-from-settings" }, ADMIN, env);
    worker = startWorker(env, { concurrency: 1 });
  });
  afterAll(async () => {
    await worker?.stop(1_000);
    await model?.close();
    await fixture?.dispose();
  });

  const finished = (runId: string) =>
    until(async () => {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, finalResult: true } });
      return ["succeeded", "failed"].includes(run.status) ? run : undefined;
    });

  it("reads the endpoint from the database, opens its key and calls its default model", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache" });
    expect((await finished(runId)).status).toBe("succeeded");
    // The fake server answers 401 to any other key, so every call carried the opened one.
    expect(model.requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(model.requests.map((body) => body.model))).toEqual(new Set(["coder-from-settings"]));
  });

  it("fails a run queued before its endpoint was deleted at once, with the reason, calling nothing", async () => {
    const endpoint = await fixture.database.db.modelEndpoint.findUniqueOrThrow({ where: { name: "settings-model" } });
    await deleteModelEndpoint(fixture.database.db, endpoint.id, ADMIN);
    const calls = model.requests.length;
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "LRU cache" });
    const run = await finished(runId);
    expect(run.status).toBe("failed");
    expect(JSON.stringify(run.finalResult)).toContain('The run cannot execute: Step \\"write_tests\\" needs a model, but no model endpoint is configured');
    expect(model.requests.length).toBe(calls);
  });
});
