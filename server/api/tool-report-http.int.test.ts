import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthFor, type DualstateAuth } from "@/server/auth/auth-instance";
import { resolveCredentials } from "@/server/auth/resolve-actor";
import { createApiToken } from "@/server/services/api-tokens/api-tokens";
import { pairDurableStore } from "@/server/services/durable-store-for";
import { waitingRun } from "@/server/services/tool-calls/testing/waiting-run";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { MAX_REPORT_BODY_BYTES, handleToolReport } from "./tool-report-http";
import type { Actor } from "./trpc";

const BASE = "http://localhost:3000";
const admin: Actor = { id: "u-admin", email: "admin@example.test", role: "admin", via: "session" };

let fixture: DurableFixture;
let auth: DualstateAuth;
let reviewerToken: string;
let viewerToken: string;

beforeAll(async () => {
  fixture = await createDurableFixture("sqlite");
  pairDurableStore(fixture.database.db, fixture.store);
  auth = await createAuthFor(fixture.database.db, { databaseUrl: fixture.database.url });
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000);
  for (const [id, email, role] of [["u-admin", admin.email, "admin"], ["u-rev", "rev@example.test", "reviewer"], ["u-view", "view@example.test", "viewer"]] as const) {
    await fixture.database.db.user.create({ data: { id, name: email, email, role } });
  }
  reviewerToken = (await createApiToken(fixture.database.db, { userId: "u-rev", name: "deployer", expiresAt }, admin)).token;
  viewerToken = (await createApiToken(fixture.database.db, { userId: "u-view", name: "reader", expiresAt }, admin)).token;
});
afterAll(() => fixture?.dispose());

function post(runId: string, callId: string, body: string, headers: Record<string, string> = {}) {
  const request = new Request(`${BASE}/api/runs/${runId}/calls/${callId}/report`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return handleToolReport(request, { runId, callId }, fixture.database.db, (requestHeaders) => resolveCredentials(fixture.database.db, requestHeaders, async () => auth));
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("POST /api/runs/<runId>/calls/<callId>/report", () => {
  it("refuses requests without credentials (401), with a viewer's token (403), and bodies that are not JSON (415)", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external" }]);
    const anonymous = await post(runId, callIds[0]!, '{"result":{}}');
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).message).toMatch(/Authorization: Bearer/);
    const viewer = await post(runId, callIds[0]!, '{"result":{}}', bearer(viewerToken));
    expect(viewer.status).toBe(403);
    expect((await viewer.json()).message).toBe("Viewers cannot report tool results; view@example.test is a viewer");
    const form = await post(runId, callIds[0]!, "result=1", { ...bearer(reviewerToken), "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    expect((await fixture.database.db.toolWait.findUniqueOrThrow({ where: { id: callIds[0]! } })).status).toBe("waiting");
  });

  it("refuses the token of a user disabled after it was made (401), and a revoked token, saying so", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external" }]);
    const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
    await fixture.database.db.user.create({ data: { id: "u-gone", name: "gone", email: "gone@example.test", role: "reviewer" } });
    const gone = (await createApiToken(fixture.database.db, { userId: "u-gone", name: "old deployer", expiresAt }, admin)).token;
    await fixture.database.db.user.update({ where: { id: "u-gone" }, data: { disabled: true } });
    expect((await post(runId, callIds[0]!, '{"result":{}}', bearer(gone))).status).toBe(401);
    const revoked = await createApiToken(fixture.database.db, { userId: "u-rev", name: "revoked", expiresAt }, admin);
    await fixture.database.db.apiToken.updateMany({ where: { userId: "u-rev", name: "revoked" }, data: { revokedAt: new Date() } });
    const refused = await post(runId, callIds[0]!, '{"result":{}}', bearer(revoked.token));
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toMatch(/was revoked/);
    expect((await fixture.database.db.toolWait.findUniqueOrThrow({ where: { id: callIds[0]! } })).status).toBe("waiting");
  });

  it("refuses a body that is too large (413), not JSON, not the report's shape, or a result the schema refuses (400), and an unknown call (404)", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external", resultSchema: { type: "object", required: ["status"] } }, { kind: "person", question: "?" }]);
    const callId = callIds[0]!;
    const huge = await post(runId, callId, JSON.stringify({ result: { log: "x".repeat(MAX_REPORT_BODY_BYTES) } }), bearer(reviewerToken));
    expect(huge.status).toBe(413);
    const cases: [string, number, string | RegExp][] = [
      ["{not json", 400, 'The body is not valid JSON; send { "result": { … } }'],
      ["[1]", 400, 'The body must be one JSON object: { "result": { … } }'],
      ['{"result":{"status":"ok"},"extra":1}', 400, 'extra: unknown field; send { "result": { … } }'],
      ['{"result":[1]}', 400, "result: must be one JSON object, not an array"],
      ['{"result":{"count":1}}', 400, "result.status: is required"],
    ];
    for (const [body, status, message] of cases) {
      const response = await post(runId, callId, body, bearer(reviewerToken));
      expect(response.status, body).toBe(status);
      expect((await response.json()).message).toEqual(message);
    }
    const unknown = await post(runId, "no-such-call", '{"result":{}}', bearer(reviewerToken));
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe(`Run "${runId}" has no tool call "no-such-call"`);
    const person = await post(runId, callIds[1]!, '{"result":{}}', bearer(reviewerToken));
    expect(person.status).toBe(409);
    expect((await fixture.database.db.toolWait.findUniqueOrThrow({ where: { id: callId } })).status).toBe("waiting");
  });

  it("applies a report with a reviewer's token (200), and answers a repeat with 200 and applied: false", async () => {
    const { runId, callIds } = await waitingRun(fixture, [{ kind: "external" }]);
    const first = await post(runId, callIds[0]!, JSON.stringify({ result: { deployed: true } }), bearer(reviewerToken));
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ applied: true, status: "reported", reportedBy: "rev@example.test", runId, callId: callIds[0] });
    const again = await post(runId, callIds[0]!, JSON.stringify({ result: { deployed: false } }), bearer(reviewerToken));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ applied: false, status: "reported", reportedBy: "rev@example.test" });
  });
});
