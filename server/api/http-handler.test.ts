import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { createFailingDb } from "./testing/test-caller";
import { handleTRPCRequest } from "./http-handler";
import type { Actor } from "./trpc";

const ADMIN: Actor = { id: "u-admin", email: "admin@example.com", role: "admin", via: "session" };

/** What a client sees over HTTP: the error formatter only applies here, not to createCaller. */
function post(path: string, input: unknown, getDb: () => TestDatabase["db"]) {
  const request = new Request(`http://localhost/api/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ json: input }),
  });
  return handleTRPCRequest(request, getDb, async () => ADMIN);
}

describe("tRPC over HTTP", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(() => database?.dispose());
  afterEach(() => vi.restoreAllMocks());

  it("answers invalid input with 400, a message naming the field, flattened zod errors and no stack", async () => {
    const response = await post("run.create", { workflowId: "w", specification: " " }, () => database.db);

    expect(response.status).toBe(400);
    const text = await response.text();
    const body = JSON.parse(text) as { error: { json: { message: string; data: Record<string, unknown> } } };
    expect(body.error.json.message).toBe("specification: must not be empty");
    expect(body.error.json.data).toMatchObject({
      code: "BAD_REQUEST",
      httpStatus: 400,
      zodError: { fieldErrors: { specification: ["must not be empty"] } },
    });
    expect(text).not.toContain("stack");
  });

  it("answers an unknown workflow with 404 naming the id", async () => {
    const response = await post("run.create", { workflowId: "missing-id", specification: "x" }, () => database.db);

    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { json: { message: string } } };
    expect(body.error.json.message).toContain("missing-id");
  });

  it("answers an unexpected failure with a generic 500 that leaks neither message nor stack", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await post(
      "workflow.create",
      { definition: minimalWorkflowDefinition("x") },
      () => createFailingDb("connection refused to 10.0.0.7 with password hunter2"),
    );

    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { json: { message: "Internal server error" } } });
    expect(text).not.toMatch(/hunter2|10\.0\.0\.7|stack/);
    // The cause goes to the server log instead.
    expect(log).toHaveBeenCalledWith("tRPC workflow.create failed:", expect.objectContaining({ message: expect.stringContaining("hunter2") }));
  });

  it("hides failures outside procedures too, such as an unusable database configuration", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await post("workflow.create", { definition: minimalWorkflowDefinition("x") }, () => {
      throw new Error("DATABASE_URL: secret-host is unreachable");
    });

    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("secret-host");
  });
});
