import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { always, executeWorkflow, failed, passed } from "../engine";
import { InMemoryArtifactDag } from "../engine/testing/in-memory-artifact-dag";
import { guardFrom } from "../engine/testing/scripted-guard";
import { PrismaRunRepository } from "../persistence/prisma-run-repository";
import { createTestDatabase, type TestDatabase } from "../persistence/testing/test-database";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../testing/fake-openai-server";
import { parseGeneratorSpec } from "./generator-spec";
import { createGenerator } from "./registry";

describe("generator objects", () => {
  it("builds each kind from its plain-object form", () => {
    const endpoint = { baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "default-model" };
    for (const spec of [
      { kind: "openai", model: "gpt-4o-mini", extract: "text", temperature: 0.2 },
      { kind: "llm" },
      { kind: "agent", max_turns: 4 },
      { kind: "replay", cassette: { steps: { implement: ["x"] } } },
    ]) {
      expect(() => createGenerator(spec, { endpoint }), JSON.stringify(spec)).not.toThrow();
    }
  });

  it.each([
    [{ kind: "gpt" }, /^generator\.kind: "gpt": must be one of openai, llm, agent, replay$/],
    [{ model: "m" }, /^generator\.kind: missing/],
    [{ kind: "openai", temprature: 1 }, /^generator: Unrecognized key: "temprature"/],
    [{ kind: "agent", max_turns: 0 }, /^generator\.max_turns: must be positive/],
    [{ kind: "openai", extract: "json" }, /^generator\.extract: /],
    [{ kind: "replay" }, /^generator\.cassette: must be a cassette name or a cassette object/],
  ])("names the field of a bad generator object %j", (spec, message) => {
    expect(() => parseGeneratorSpec(spec)).toThrow(message);
  });

  it("needs a model from the step or OPENAI_MODEL", () => {
    expect(() => createGenerator({ kind: "openai" }, {}, "steps.1.generator")).toThrow(/^steps\.1\.generator\.model: no model: set the step's model option or OPENAI_MODEL$/);
  });

  it("reports a bad inline cassette under the generator's path", () => {
    expect(() => createGenerator({ kind: "replay", cassette: { steps: { implement: [{ delay_ms: -1, content: "x" }] } } })).toThrow(/^generator\.cassette: /);
    expect(() => createGenerator({ kind: "replay", cassette: { steps: { implement: [{ content: "x", delay_ms: 3_600_000 }] } } })).toThrow("generator.cassette: steps.implement[0].delay_ms: must be at most 60000 (60 s)");
    // A path is never a cassette: documents name cassettes in the configured directory only.
    expect(() => createGenerator({ kind: "replay", cassette: "/etc/passwd" })).toThrow(/^generator\.cassette: must be a cassette name/);
    expect(() => createGenerator({ kind: "replay", cassette: "no-such-cassette" })).toThrow(/^generator\.cassette: cassette 'no-such-cassette' was not found: no cassette directory is configured/);
  });
});

describe("the openai generator from its object form, on a persisted run", () => {
  let server: FakeOpenAiServer;
  let database: TestDatabase;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await server.close();
    await database.dispose();
  });

  it("refines with guard feedback, records the calls, and a re-run against the ledger calls the model zero times", async () => {
    server.setReplies(["```python\ndef add(a, b):\n    return a - b\n```", "```python\ndef add(a, b):\n    return a + b\n```"]);
    const generator = createGenerator({ kind: "llm" }, { endpoint: { baseURL: server.baseURL, apiKey: "k", model: "configured-default" } });
    const guard = guardFrom((artifact) => (artifact.content.includes("a + b") ? passed() : failed("add(1, 2) returned -1, expected 3")));
    const steps = [{ name: "implement", guardId: "g_impl", guardArtifactDeps: [], actionPair: { precondition: always, generator, guard } }];
    const runs = new PrismaRunRepository(database.db);
    const { id } = await runs.create({ specification: "Write add(a, b)" });

    const first = await executeWorkflow({ specification: "Write add(a, b)", steps, dag: runs.dag(id), observer: runs.observer(id), calls: runs.calls(id) });
    expect(first.status).toBe("success");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({ model: "configured-default" });
    expect(JSON.stringify(server.requests[1])).toContain("add(1, 2) returned -1, expected 3");
    const ledger = await runs.ledger(id);
    const modelResults = ledger.filter((entry) => entry.type === "action_result" && entry.actor === "model");
    expect(modelResults).toHaveLength(2);
    expect(modelResults[0]?.payload).toMatchObject({ model: "configured-default", usage: expect.any(Object) });

    const again = await executeWorkflow({ specification: "Write add(a, b)", steps, dag: new InMemoryArtifactDag(), calls: runs.calls(id) });
    expect(server.requests).toHaveLength(2);
    expect(again.status).toBe("success");
    expect(again.artifacts.g_impl?.content).toBe(first.artifacts.g_impl?.content);
  });
});
