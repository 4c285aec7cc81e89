import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadModelDirectory } from "@/server/models/load-from-prisma";
import { loadModelDirectoryFromSql } from "@/server/models/load-from-sql";
import { openSqlClient } from "@/server/persistence/sql/open-sql-client";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/server/testing/fake-openai-server";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import type { Actor } from "../trpc";
import { createTestCaller, TEST_DATABASES } from "../testing/test-caller";

// These tests are about what is configured in Settings: no endpoint from the environment (the
// test configuration sets one for every other file; an empty value counts as unset).
vi.hoisted(() => {
  process.env.OPENAI_BASE_URL = "";
  process.env.OPENAI_API_KEY = "";
  process.env.OPENAI_MODEL = "";
});

const API_KEY = "sk-test-0123456789-secret-WXYZ";
const person = (role: Actor["role"]): Actor => ({ id: `u-${role}`, email: `${role}@example.com`, role, via: "session" });

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`model endpoints on ${provider}`, () => {
    let database: TestDatabase;
    let admin: ReturnType<typeof createTestCaller>;
    let server: FakeOpenAiServer;
    /** Every procedure output of this file, to check that the key never appears in one. */
    const outputs: unknown[] = [];
    const seen = <T>(value: T): T => {
      outputs.push(value);
      return value;
    };

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      admin = createTestCaller(database.db);
      server = await startFakeOpenAiServer(["```python\nprint(1)\n```"], { models: ["coder-1", "coder-2"], apiKey: API_KEY });
    });
    afterAll(async () => {
      await server?.close();
      await database?.dispose();
    });

    it("is for admins only: everyone else is refused, whatever the procedure", async () => {
      for (const role of ["viewer", "reviewer"] as const) {
        const caller = createTestCaller(database.db, person(role));
        await expect(caller.models.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
        await expect(caller.models.create({ name: "x", baseUrl: server.baseURL })).rejects.toMatchObject({ code: "FORBIDDEN" });
        await expect(caller.models.update({ id: "x", name: "x", baseUrl: server.baseURL })).rejects.toMatchObject({ code: "FORBIDDEN" });
        await expect(caller.models.delete({ id: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
        await expect(caller.models.testConnection({ baseUrl: server.baseURL })).rejects.toMatchObject({ code: "FORBIDDEN" });
      }
      await expect(createTestCaller(database.db, null).models.status()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      expect(await database.db.modelEndpoint.count()).toBe(0);
    });

    it("refuses a run whose model is not configured, naming the step, and the Run dialog says why", async () => {
      const workflow = await admin.workflow.create({ definition: minimalWorkflowDefinition("needs-a-model") });
      await expect(admin.run.create({ workflowId: workflow.id, specification: "x" })).rejects.toMatchObject({
        code: "PRECONDITION_FAILED",
        message: 'The run cannot start: Step "write" needs a model, but no model endpoint is configured (an admin adds one under Admin → Models, or sets OPENAI_BASE_URL)',
      });
      expect(await database.db.run.count()).toBe(0);
      const viewer = createTestCaller(database.db, person("viewer"));
      expect(seen(await viewer.models.status())).toEqual({ configured: false, endpoint: null, model: null });
      expect(seen(await viewer.models.planRun({ workflowId: workflow.id }))).toMatchObject({ version: 1, refusal: expect.stringContaining('Step "write" needs a model'), models: [{ step: "write", ok: false }] });
    });

    it("validates names and URLs, naming the field", async () => {
      // createCaller sees the zod issues (the HTTP edge flattens them to "field: message").
      const refused = (field: string, message: string) => ({ code: "BAD_REQUEST", message: expect.stringMatching(new RegExp(`"path": \\[\\s*"${field}"\\s*\\][\\s\\S]*${message}|${message}[\\s\\S]*"path": \\[\\s*"${field}"`)) });
      await expect(admin.models.create({ name: "environment", baseUrl: server.baseURL })).rejects.toMatchObject(refused("name", "is the endpoint set by OPENAI_BASE_URL"));
      await expect(admin.models.create({ name: "bad name", baseUrl: server.baseURL })).rejects.toMatchObject(refused("name", "must start with a letter or digit"));
      await expect(admin.models.create({ name: "ftp", baseUrl: "ftp://models.example/v1" })).rejects.toMatchObject(refused("baseUrl", "must be an http:// or https:// URL"));
      await expect(admin.models.create({ name: "creds", baseUrl: "http://user:pw@models.example/v1" })).rejects.toMatchObject(refused("baseUrl", "must not carry a user name or password"));
      await expect(admin.models.create({ name: "long", baseUrl: server.baseURL, apiKey: "k".repeat(5000) })).rejects.toMatchObject(refused("apiKey", "must be at most 4096"));
      expect(await database.db.modelEndpoint.count()).toBe(0);
    });

    it("stores the key sealed, shows only its last four characters, and never returns it", async () => {
      const { id } = seen(await admin.models.create({ name: "local", baseUrl: server.baseURL, apiKey: API_KEY, defaultModel: "coder-1" }));
      const row = await database.db.modelEndpoint.findUniqueOrThrow({ where: { id } });
      expect(row.apiKeyCiphertext).toMatch(/^v1\./);
      expect(row.apiKeyCiphertext).not.toContain("secret");
      expect(row).toMatchObject({ createdBy: "admin@example.com", updatedBy: "admin@example.com", isDefault: true, apiKeyHint: "WXYZ" });
      const [listed] = seen(await admin.models.list());
      expect(listed).toMatchObject({ id, name: "local", source: "settings", baseUrl: server.baseURL, defaultModel: "coder-1", isDefault: true, apiKey: { set: true, lastFour: "WXYZ" }, problem: null });
      await expect(admin.models.create({ name: "local", baseUrl: server.baseURL })).rejects.toMatchObject({ code: "CONFLICT", message: 'name: an endpoint named "local" already exists' });
      const audit = await database.db.auditEvent.findMany({ where: { action: { startsWith: "model_endpoint." } } });
      expect(audit.map((event) => event.action)).toEqual(["model_endpoint.created"]);
      expect(JSON.stringify(audit)).not.toContain(API_KEY);
    });

    it("tests the connection with the stored key: the model count, and whether the default model is listed", async () => {
      const [local] = await admin.models.list();
      expect(seen(await admin.models.testConnection({ id: local?.id }))).toEqual({ ok: true, modelCount: 2, defaultModelListed: true, models: ["coder-1", "coder-2"], message: `Connected: GET ${server.baseURL}/models lists 2 models, including the default model "coder-1".` });
      expect(seen(await admin.models.testConnection({ id: local?.id, defaultModel: "gpt-9" }))).toMatchObject({ ok: true, defaultModelListed: false, message: expect.stringContaining('the default model "gpt-9" is not among them') });
      expect(seen(await admin.models.testConnection({ baseUrl: server.baseURL, apiKey: "sk-wrong-key" }))).toEqual({ ok: false, message: expect.stringMatching(/^GET http:\/\/127\.0\.0\.1:\d+\/v1\/models refused the API key \(401: Incorrect API key provided\)$/) });
      const closed = await startFakeOpenAiServer();
      const closedUrl = closed.baseURL;
      await closed.close();
      expect(seen(await admin.models.testConnection({ baseUrl: closedUrl }))).toEqual({ ok: false, message: `could not connect to GET ${closedUrl}/models: the connection was refused (is the server running?)` });
      const notAnApi = createServer((_request, response) => response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>"));
      await new Promise<void>((resolve) => notAnApi.listen(0, "127.0.0.1", resolve));
      try {
        const url = `http://127.0.0.1:${(notAnApi.address() as AddressInfo).port}`;
        expect(seen(await admin.models.testConnection({ baseUrl: url }))).toEqual({ ok: false, message: `GET ${url}/models has no model list (404): check that the base URL is the API's root, usually ending in /v1` });
      } finally {
        notAnApi.close();
      }
    });

    it("lets the run start once a model is configured, and the Run dialog names the endpoint and model", async () => {
      const workflow = await admin.workflow.get({ name: "needs-a-model" });
      const { id } = seen(await admin.run.create({ workflowId: workflow.id, specification: "x" }));
      expect(id).toBeTruthy();
      expect(seen(await admin.models.planRun({ workflowId: workflow.id }))).toEqual({ version: 1, models: [{ step: "write", use: "generator", endpoint: undefined, model: "coder-1", ok: true, endpointName: "local" }] });
      expect(seen(await admin.models.planRun({ workflowId: workflow.id, replay: true }))).toEqual({ version: 1, models: [] });
      expect(seen(await createTestCaller(database.db, person("viewer")).models.status())).toEqual({ configured: true, endpoint: "local", model: "coder-1" });
    });

    it("refuses a step that names an endpoint that does not exist, naming the step, model and endpoint", async () => {
      const definition = minimalWorkflowDefinition("names-an-endpoint");
      const workflow = await admin.workflow.create({ definition: { ...definition, steps: [{ ...definition.steps[0], generator: { kind: "openai", endpoint: "cloud", model: "big-1" } }] } });
      await expect(admin.run.create({ workflowId: workflow.id, specification: "x" })).rejects.toMatchObject({
        code: "PRECONDITION_FAILED",
        message: 'The run cannot start: Step "write" needs model "big-1" on endpoint "cloud", which is not configured (configured: "local")',
      });
    });

    it("reads the same endpoints through the worker's SQL connection, key opened", async () => {
      const sql = openSqlClient(database.url);
      try {
        const settings = { OPENAI_BASE_URL: undefined };
        const fromSql = await loadModelDirectoryFromSql(sql, settings);
        expect(fromSql).toEqual(await loadModelDirectory(database.db, settings));
        expect(fromSql.endpoints).toEqual([{ name: "local", source: "settings", baseURL: server.baseURL, apiKey: API_KEY, defaultModel: "coder-1", isDefault: true }]);
      } finally {
        await sql.close();
      }
    });

    it("keeps the key when an update gives none, replaces it only when a new one is typed, and can remove it", async () => {
      const [local] = await admin.models.list();
      const id = local?.id ?? "";
      seen(await admin.models.update({ id, name: "local", baseUrl: server.baseURL, defaultModel: "coder-2", isDefault: true }));
      expect(seen(await admin.models.testConnection({ id }))).toMatchObject({ ok: true, defaultModelListed: true });
      seen(await admin.models.update({ id, name: "local", baseUrl: server.baseURL, defaultModel: "coder-2", isDefault: true, apiKey: "sk-a-new-key-that-is-wrong-9876" }));
      expect((await admin.models.list())[0]?.apiKey).toEqual({ set: true, lastFour: "9876" });
      expect(seen(await admin.models.testConnection({ id }))).toMatchObject({ ok: false, message: expect.stringContaining("refused the API key (401") });
      seen(await admin.models.update({ id, name: "local", baseUrl: server.baseURL, defaultModel: "coder-2", isDefault: true, clearApiKey: true }));
      expect((await admin.models.list())[0]?.apiKey).toEqual({ set: false, lastFour: null });
      seen(await admin.models.update({ id, name: "local", baseUrl: server.baseURL, defaultModel: "coder-1", isDefault: true, apiKey: API_KEY }));
    });

    it("marks an endpoint whose key no longer decrypts, and refuses runs that need it with the reason", async () => {
      const secret = await database.db.setting.findUniqueOrThrow({ where: { key: "auth.secret" } });
      await database.db.setting.update({ where: { key: "auth.secret" }, data: { value: "a-different-secret-of-at-least-32-chars" } });
      try {
        const [local] = seen(await admin.models.list());
        expect(local?.problem).toMatch(/cannot be decrypted: the encryption key changed/);
        const workflow = await admin.workflow.get({ name: "needs-a-model" });
        await expect(admin.run.create({ workflowId: workflow.id, specification: "x" })).rejects.toMatchObject({ code: "PRECONDITION_FAILED", message: expect.stringContaining('endpoint "local", which cannot be used: the stored key cannot be decrypted') });
        expect(seen(await admin.models.testConnection({ id: local?.id }))).toMatchObject({ ok: false, message: expect.stringContaining("cannot be used") });
      } finally {
        await database.db.setting.update({ where: { key: "auth.secret" }, data: { value: secret.value } });
      }
    });

    it("refuses a re-run once the endpoint it needs is deleted", async () => {
      const [run] = await database.db.run.findMany({ select: { id: true } });
      const [local] = await admin.models.list();
      seen(await admin.models.delete({ id: local?.id ?? "" }));
      expect(seen(await admin.models.list())).toEqual([]);
      await expect(admin.run.rerun({ id: run?.id ?? "" })).rejects.toMatchObject({ code: "PRECONDITION_FAILED", message: expect.stringContaining('Step "write" needs a model') });
      await expect(admin.models.delete({ id: local?.id ?? "" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("never put the key in any output", () => {
      expect(outputs.length).toBeGreaterThan(15);
      for (const output of outputs) expect(JSON.stringify(output) ?? "").not.toContain(API_KEY);
    });
  });
}
