import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthFor, type DualstateAuth } from "@/server/auth/auth-instance";
import { resolveActor } from "@/server/auth/resolve-actor";
import { SignInLimiter } from "@/server/auth/sign-in-limiter";
import { handleSignIn } from "@/server/auth/sign-in-route";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { createApiToken, revokeApiToken } from "@/server/services/api-tokens/api-tokens";
import { ensureFirstAdmin } from "@/server/services/users/ensure-first-admin";
import { minimalWorkflowDefinition } from "@/server/workflows/definition/testing/minimal-workflow";
import { handleTRPCRequest } from "./http-handler";
import { MAX_CALLS_PER_BATCH, MAX_TRPC_BODY_BYTES } from "./request-limits";
import { createTestCaller } from "./testing/test-caller";
import type { Actor } from "./trpc";

const BASE = "http://localhost:3000";
const PASSWORD = "correct horse battery";

let database: TestDatabase;
let auth: DualstateAuth;
let admin: Actor;
let runId: string;
let seq = 0;

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  auth = await createAuthFor(database.db, { databaseUrl: database.url });
  await ensureFirstAdmin(database.db, { email: "admin@example.com", password: PASSWORD });
  const row = await database.db.user.findUniqueOrThrow({ where: { email: "admin@example.com" } });
  admin = { id: row.id, email: row.email, role: "admin", via: "session" };
  const caller = createTestCaller(database.db, admin);
  const workflow = await caller.workflow.create({ definition: minimalWorkflowDefinition("Edge") });
  runId = (await caller.run.create({ workflowId: workflow.id, specification: "stream me" })).id;
  await append("run.started");
});
afterAll(() => database?.dispose());

async function append(type: string) {
  seq += 1;
  await database.db.ledgerEntry.create({ data: { id: `${runId}-${seq}`, runId, seq, actor: "engine", type, payload: {} } });
}

const serve = (request: Request) => handleTRPCRequest(request, () => database.db, (req) => resolveActor(database.db, req.headers, async () => auth));

async function signIn(): Promise<string> {
  const request = new Request(`${BASE}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: BASE }, body: JSON.stringify({ email: "admin@example.com", password: PASSWORD }) });
  const response = await handleSignIn(request, { auth, db: database.db, limiter: new SignInLimiter(), address: "127.0.0.1" });
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}

/** Opens run.events over SSE; `text()` is everything received so far, `ended` resolves when the server closes it. */
function openEvents(headers: Record<string, string>) {
  const controller = new AbortController();
  const input = encodeURIComponent(JSON.stringify({ json: { id: runId } }));
  const state = { text: "", ended: Promise.resolve() };
  state.ended = (async () => {
    const response = await serve(new Request(`${BASE}/api/trpc/run.events?input=${input}`, { headers, signal: controller.signal }));
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      state.text += decoder.decode(value, { stream: true });
    }
  })();
  return { state, close: () => controller.abort() };
}

async function waitFor(condition: () => boolean, timeoutMs = 15_000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("server-sent event streams end with their credentials", () => {
  it("a signed-out session's stream ends with a message instead of delivering the next event", async () => {
    const cookie = await signIn();
    const { state } = openEvents({ cookie });
    await waitFor(() => state.text.includes("run.started"));
    const out = await auth.handler(new Request(`${BASE}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: BASE, "content-type": "application/json" }, body: "{}" }));
    expect(out.status).toBe(200);
    // Past the one-second bound on re-checks before an event.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await append("after.sign-out");
    await state.ended;
    expect(state.text).toContain("Your session has ended");
    expect(state.text).not.toContain("after.sign-out");
  });

  it("a revoked API token's stream ends the same way", async () => {
    const { id, token } = await createApiToken(database.db, { userId: admin.id, name: "stream", expiresAt: new Date(Date.now() + 86_400_000) }, admin);
    const { state } = openEvents({ authorization: `Bearer ${token}` });
    await waitFor(() => state.text.includes("run.started"));
    await revokeApiToken(database.db, id, admin);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await append("after.revoke");
    await state.ended;
    expect(state.text).toContain("API token of this stream was revoked");
    expect(state.text).not.toContain("after.revoke");
  });

  it("a valid session's stream keeps delivering", async () => {
    const cookie = await signIn();
    const { state, close } = openEvents({ cookie });
    await waitFor(() => state.text.includes("run.started"));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await append("still.flowing");
    await waitFor(() => state.text.includes("still.flowing"));
    close();
  });
});

describe("tRPC batches and bodies are bounded", () => {
  const batch = (calls: number) => {
    const paths = Array.from({ length: calls }, () => "workflow.list").join(",");
    const input = encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, index) => [index, { json: null }]))));
    return new Request(`${BASE}/api/trpc/${paths}?batch=1&input=${input}`, { headers: { authorization: "Bearer none" } });
  };

  it("a batch of 1000 calls is refused before any runs, with a message naming the limit", async () => {
    const response = await serve(batch(1000));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { json: { message: string } } };
    expect(body.error.json.message).toBe(`A batch may hold at most ${MAX_CALLS_PER_BATCH} calls; this one has 1000`);
  });

  it(`a batch of ${MAX_CALLS_PER_BATCH} calls is answered call by call`, async () => {
    const response = await serve(batch(MAX_CALLS_PER_BATCH));
    const body = (await response.json()) as unknown[];
    expect(body).toHaveLength(MAX_CALLS_PER_BATCH);
  });

  it("a body declared over the limit is refused unread; one that streams past it is cut off; both with 413", async () => {
    const declared = new Request(`${BASE}/api/trpc/workflow.create`, { method: "POST", headers: { "content-type": "application/json", "content-length": String(MAX_TRPC_BODY_BYTES + 1) }, body: "{}" });
    expect((await serve(declared)).status).toBe(413);
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > 64 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const streamed = new Request(`${BASE}/api/trpc/workflow.create`, { method: "POST", headers: { "content-type": "application/json" }, body: endless, duplex: "half" } as RequestInit);
    const response = await serve(streamed);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { json: { message: string } } }).error.json.message).toBe("A request body may be at most 12 MiB");
    expect(sent).toBeLessThan(MAX_TRPC_BODY_BYTES + 4 * chunk.byteLength);
  });
});
