import { describe, expect, it } from "vitest";
import type { WorkflowDefinition } from "../workflows/definition";
import { deriveEncryptionKey } from "./encryption-key";
import { buildModelDirectory, environmentEndpoint, type StoredEndpointRow } from "./model-directory";
import { modelNeedsOf } from "./model-needs";
import { resolveModel } from "./resolve-model";
import { planRunModels } from "./run-model-plan";
import { sealSecret } from "./secret-box";

const key = deriveEncryptionKey("x".repeat(40));
const row = (fields: Partial<StoredEndpointRow> & { name: string }): StoredEndpointRow => ({ id: `id-${fields.name}`, baseUrl: `http://${fields.name}.test/v1`, apiKeyCiphertext: null, defaultModel: null, isDefault: false, ...fields });
const env = environmentEndpoint({ OPENAI_BASE_URL: "http://env.test/v1", OPENAI_API_KEY: "env-key", OPENAI_MODEL: "env-model" });

describe("resolving the endpoint and model a step calls", () => {
  it("opens a stored endpoint's key and uses its default model", () => {
    const directory = buildModelDirectory([row({ name: "local", apiKeyCiphertext: sealSecret("sk-local", key, "id-local"), defaultModel: "qwen", isDefault: true })], key, undefined);
    expect(resolveModel(directory, {})).toEqual({ ok: true, endpointName: "local", source: "settings", client: { baseURL: "http://local.test/v1", apiKey: "sk-local", model: "qwen" } });
    expect(resolveModel(directory, { endpoint: "local", model: "llama" })).toMatchObject({ ok: true, client: { model: "llama" } });
  });

  it("uses the endpoint marked default, else the environment's, for steps that name none", () => {
    const marked = buildModelDirectory([row({ name: "a", defaultModel: "m-a" }), row({ name: "b", defaultModel: "m-b", isDefault: true })], key, env);
    expect(resolveModel(marked, {})).toMatchObject({ ok: true, endpointName: "b", client: { model: "m-b" } });
    const unmarked = buildModelDirectory([row({ name: "a", defaultModel: "m-a" })], key, env);
    expect(resolveModel(unmarked, {})).toMatchObject({ ok: true, endpointName: "environment", source: "environment", client: { baseURL: "http://env.test/v1", apiKey: "env-key", model: "env-model" } });
    expect(resolveModel(unmarked, { endpoint: "environment" })).toMatchObject({ ok: true, endpointName: "environment" });
  });

  it("says why when nothing is configured, an endpoint is unknown, or no model is named", () => {
    const empty = buildModelDirectory([], key, undefined);
    expect(resolveModel(empty, { model: "gpt-4o" })).toEqual({ ok: false, field: "endpoint", reason: expect.stringMatching(/^needs model "gpt-4o", but no model endpoint is configured \(an admin adds one under Admin → Models/) });
    const one = buildModelDirectory([row({ name: "local", isDefault: true })], key, undefined);
    expect(resolveModel(one, { endpoint: "cloud", model: "m" })).toEqual({ ok: false, field: "endpoint", reason: 'needs model "m" on endpoint "cloud", which is not configured (configured: "local")' });
    expect(resolveModel(one, { endpoint: "environment" })).toMatchObject({ ok: false, reason: expect.stringContaining("OPENAI_BASE_URL and OPENAI_API_KEY are not set") });
    expect(resolveModel(one, {})).toEqual({ ok: false, field: "model", reason: expect.stringMatching(/names no model, and endpoint "local" has no default model/) });
  });

  it("marks an endpoint whose key no longer opens as unusable, with the reason", () => {
    const sealedWithOtherKey = sealSecret("sk", deriveEncryptionKey("y".repeat(40)), "id-local");
    const directory = buildModelDirectory([row({ name: "local", apiKeyCiphertext: sealedWithOtherKey, defaultModel: "m", isDefault: true })], key, undefined);
    expect(resolveModel(directory, {})).toMatchObject({ ok: false, reason: expect.stringContaining("cannot be used: the stored key cannot be decrypted") });
    expect(buildModelDirectory([row({ name: "local", apiKeyCiphertext: sealedWithOtherKey })], undefined, undefined).endpoints[0]?.unusable).toMatch(/no encryption secret/);
  });

  it("counts the environment as configured only when OPENAI_BASE_URL or OPENAI_API_KEY is set", () => {
    expect(environmentEndpoint({ OPENAI_MODEL: "m" })).toBeUndefined();
    expect(environmentEndpoint({ OPENAI_API_KEY: "k" })).toMatchObject({ name: "environment", baseURL: undefined });
  });
});

const definition = {
  name: "two-steps",
  steps: [
    { name: "write_tests", type: "action_pair", generator: { kind: "openai", model: "coder", endpoint: "local" }, guards: [{ kind: "syntax" }, { kind: "any_of", guards: [{ kind: "llm_judge", rubric: "r", model: "judge" }] }] },
    { name: "implement", type: "llm" },
    { name: "cleanup", type: "code", code: "x" },
    { name: "replayed", type: "llm", generator: { kind: "replay", cassette: "demo" } },
  ],
} as unknown as WorkflowDefinition;

describe("the models a run needs", () => {
  it("lists generators and nested llm_judge guards; replay and code steps need none", () => {
    expect(modelNeedsOf(definition)).toEqual([
      { step: "write_tests", use: "generator", endpoint: "local", model: "coder" },
      { step: "write_tests", use: "llm_judge", model: "judge" },
      { step: "implement", use: "generator", endpoint: undefined, model: undefined },
    ]);
  });

  it("needs no model when the run replays a cassette: its judges answer from the cassette too", () => {
    expect(modelNeedsOf(definition, { kind: "replay", cassette: { steps: {} } })).toEqual([]);
  });

  it("refuses naming the step and the model, and plans every step when all is configured", () => {
    const onlyEnv = buildModelDirectory([], key, env);
    expect(planRunModels(definition, undefined, onlyEnv).refusal).toBe('Step "write_tests" needs model "coder" on endpoint "local", which is not configured (configured: "environment")');
    const both = buildModelDirectory([row({ name: "local" })], key, env);
    expect(planRunModels(definition, undefined, both)).toEqual({
      models: [
        { step: "write_tests", use: "generator", endpoint: "local", model: "coder", ok: true, endpointName: "local" },
        { step: "write_tests", use: "llm_judge", model: "judge", ok: true, endpointName: "environment" },
        { step: "implement", use: "generator", endpoint: undefined, model: "env-model", ok: true, endpointName: "environment" },
      ],
    });
  });
});
