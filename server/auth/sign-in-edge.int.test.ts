import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { ensureFirstAdmin } from "@/server/services/users/ensure-first-admin";
import { installConnectionHeader, withConnectionAddress } from "../../bin/connection-address.mjs";
import { createAuthFor, type DualstateAuth } from "./auth-instance";
import { clientAddress } from "./client-address";
import { connectionPeer } from "./connection-peer";
import { hashSessionToken } from "./hashed-session-adapter";
import { resolveActor } from "./resolve-actor";
import { SignInLimiter } from "./sign-in-limiter";
import { handleSignIn } from "./sign-in-route";
import { parseProxyRange, TrustedProxies, type ProxyRange } from "./trusted-proxies";

const PASSWORD = "correct horse battery";
const SECRET = "a-test-secret-that-is-at-least-32-characters";
const URL_BASE = "http://localhost:3000";

let database: TestDatabase;
let auth: DualstateAuth;
let adminId: string;

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  auth = await createAuthFor(database.db, { databaseUrl: database.url, secret: SECRET });
  await ensureFirstAdmin(database.db, { email: "admin@example.com", password: PASSWORD });
  adminId = (await database.db.user.findUniqueOrThrow({ where: { email: "admin@example.com" } })).id;
});
afterAll(() => database?.dispose());

function post(body: BodyInit, contentType: string, extra: Record<string, string> = {}): Request {
  return new Request(`${URL_BASE}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": contentType, origin: URL_BASE, ...extra }, body });
}

const auditOf = (action: string) => database.db.auditEvent.findMany({ where: { action }, orderBy: { at: "asc" } });

describe("the sign-in body is parsed once, as JSON only", () => {
  it.each([
    ["a form", "application/x-www-form-urlencoded", "email=admin%40example.com&password=x"],
    ["a form whose text is also JSON", "application/x-www-form-urlencoded", JSON.stringify({ email: "admin@example.com", password: PASSWORD })],
    ["multipart", "multipart/form-data; boundary=b", `--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nadmin@example.com\r\n--b--\r\n`],
    ["plain text", "text/plain", JSON.stringify({ email: "admin@example.com", password: PASSWORD })],
  ])("refuses %s with 415, without counting or signing in", async (_name, type, body) => {
    const limiter = new SignInLimiter();
    const response = await handleSignIn(post(body, type), { auth, db: database.db, limiter, address: "10.9.9.9" });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { code: string }).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("refuses a body over 16 KiB, invalid JSON and wrong field types, naming the field", async () => {
    const deps = { auth, db: database.db, limiter: new SignInLimiter(), address: "10.9.9.8" };
    expect((await handleSignIn(post(JSON.stringify({ email: "a@example.com", password: "x".repeat(20_000) }), "application/json"), deps)).status).toBe(413);
    expect((await handleSignIn(post("{", "application/json"), deps)).status).toBe(400);
    const wrongType = await handleSignIn(post(JSON.stringify({ email: ["admin@example.com"], password: PASSWORD }), "application/json"), deps);
    expect(wrongType.status).toBe(400);
    expect(((await wrongType.json()) as { message: string }).message).toMatch(/^email: /);
  });

  it("an address no account can have (admin@localhost) is refused by name, before the limiter, the password check and the audit log", async () => {
    const limiter = new SignInLimiter({ failuresPerEmail: 1, attemptsPerAddress: 2, windowMs: 60_000 });
    const deps = { auth, db: database.db, limiter, address: "10.9.9.5" };
    for (let i = 0; i < 5; i++) {
      const refused = await handleSignIn(post(JSON.stringify({ email: "admin@localhost", password: PASSWORD }), "application/json"), deps);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ code: "INVALID_EMAIL", message: expect.stringMatching(/^email: needs a dot in its domain .*admin@dualstate\.localhost/) });
    }
    // None of the five counted: the address may still sign in as a real account.
    expect((await handleSignIn(post(JSON.stringify({ email: "admin@example.com", password: PASSWORD }), "application/json"), deps)).status).toBe(200);
    expect(await database.db.auditEvent.count({ where: { actorEmail: "admin@localhost" } })).toBe(0);
  });

  it("a JSON body naming the email twice: the limiter, the sign-in and the audit row all use the same one", async () => {
    const limiter = new SignInLimiter({ failuresPerEmail: 2, attemptsPerAddress: 100, windowMs: 60_000 });
    const deps = { auth, db: database.db, limiter, address: "10.9.9.7" };
    const twice = (password: string) => `{"email":"decoy@example.com","password":${JSON.stringify(password)},"email":"Victim@Example.com"}`;
    await database.db.user.create({ data: { id: "victim", email: "victim@example.com", name: "victim", emailVerified: false, role: "viewer" } });
    for (let i = 0; i < 2; i++) expect((await handleSignIn(post(twice("wrong password 1"), "application/json"), deps)).status).toBe(401);
    // The two failures counted against the email the sign-in used, so the third is limited.
    expect((await handleSignIn(post(twice("wrong password 1"), "application/json"), deps)).status).toBe(429);
    const failed = (await auditOf("sign_in.failed")).filter((event) => event.ip === "10.9.9.7");
    expect(failed.map((event) => event.actorEmail)).toEqual(["victim@example.com", "victim@example.com"]);
    expect((await auditOf("sign_in.limited")).at(-1)).toMatchObject({ actorEmail: "victim@example.com" });
  });

  it("a success is audited from better-auth's own answer: the user id and email it signed in", async () => {
    const deps = { auth, db: database.db, limiter: new SignInLimiter(), address: "10.9.9.6" };
    const response = await handleSignIn(post(JSON.stringify({ email: " ADMIN@example.com ", password: PASSWORD }), "application/json"), deps);
    expect(response.status).toBe(200);
    const succeeded = (await auditOf("sign_in.succeeded")).filter((event) => event.ip === "10.9.9.6");
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]).toMatchObject({ actorId: adminId, actorEmail: "admin@example.com", target: "user:admin@example.com" });
  });
});

/** The session cookie better-auth sets: `<token>.<signature>`, URL-encoded. */
function sessionCookie(response: Response): { header: string; token: string } {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith("better-auth.session_token="))!;
  const value = decodeURIComponent(cookie.split(";")[0]!.slice("better-auth.session_token=".length));
  return { header: `better-auth.session_token=${encodeURIComponent(value)}`, token: value.slice(0, value.lastIndexOf(".")) };
}

/** A cookie signed as better-auth signs one: what someone holding the database (and so the generated secret) could forge. */
const signedCookie = (value: string) => `better-auth.session_token=${encodeURIComponent(`${value}.${createHmac("sha256", SECRET).update(value).digest("base64")}`)}`;

describe("session tokens are stored hashed", () => {
  it("the table holds the token's SHA-256, the cookie still works, and the stored value is not a session", async () => {
    const response = await handleSignIn(post(JSON.stringify({ email: "admin@example.com", password: PASSWORD }), "application/json"), { auth, db: database.db, limiter: new SignInLimiter(), address: "10.9.9.5" });
    const { header, token } = sessionCookie(response);
    const rows = await database.db.session.findMany({ where: { userId: adminId } });
    expect(rows.some((row) => row.token === token)).toBe(false);
    expect(rows.map((row) => row.token)).toContain(hashSessionToken(token));
    const actorOf = (cookie: string) => resolveActor(database.db, new Headers({ cookie }), async () => auth);
    expect((await actorOf(header))?.id).toBe(adminId);
    // The control: a cookie forged the same way from the real token works, one from the stored hash does not.
    expect((await actorOf(signedCookie(token)))?.id).toBe(adminId);
    expect(await actorOf(signedCookie(hashSessionToken(token)))).toBeNull();
  });

  it("signing out deletes the session row found by the hashed token", async () => {
    const response = await handleSignIn(post(JSON.stringify({ email: "admin@example.com", password: PASSWORD }), "application/json"), { auth, db: database.db, limiter: new SignInLimiter(), address: "10.9.9.4" });
    const { header, token } = sessionCookie(response);
    expect(await database.db.session.count({ where: { token: hashSessionToken(token) } })).toBe(1);
    const out = await auth.handler(new Request(`${URL_BASE}/api/auth/sign-out`, { method: "POST", headers: { cookie: header, origin: URL_BASE, "content-type": "application/json" }, body: "{}" }));
    expect(out.status).toBe(200);
    expect(await database.db.session.count({ where: { token: hashSessionToken(token) } })).toBe(0);
  });

  it("a session due for refresh is extended in place, and the refreshed cookie still carries the token, not its hash", async () => {
    const response = await handleSignIn(post(JSON.stringify({ email: "admin@example.com", password: PASSWORD }), "application/json"), { auth, db: database.db, limiter: new SignInLimiter(), address: "10.9.9.3" });
    const { header, token } = sessionCookie(response);
    // Older than a day (updateAge): better-auth extends it on the next use.
    const soon = new Date(Date.now() + 5 * 24 * 3_600_000);
    await database.db.session.update({ where: { token: hashSessionToken(token) }, data: { expiresAt: soon } });
    const { headers } = await auth.api.getSession({ headers: new Headers({ cookie: header }), returnHeaders: true });
    const refreshed = sessionCookie(new Response(null, { headers }));
    expect(refreshed.token).toBe(token);
    const row = await database.db.session.findUniqueOrThrow({ where: { token: hashSessionToken(token) } });
    expect(row.expiresAt.getTime()).toBeGreaterThan(soon.getTime());
  });

  it("a session stored before hashing (a raw token in the table) no longer signs anyone in", async () => {
    const raw = "legacyrawtoken0123456789abcdefgh";
    await database.db.session.create({ data: { id: "legacy", token: raw, userId: adminId, expiresAt: new Date(Date.now() + 3_600_000) } });
    expect(await resolveActor(database.db, new Headers({ cookie: signedCookie(raw) }), async () => auth)).toBeNull();
  });
});

describe("the limiter keys on the connection, through the real web server's header", () => {
  let server: Server;
  let base: string;
  let trusted = new TrustedProxies([]);
  let limiter = new SignInLimiter({ failuresPerEmail: 100, attemptsPerAddress: 3, windowMs: 60_000 });

  /** A Node request as a fetch Request (what Next.js does before a route handler runs). */
  async function toRequest(request: IncomingMessage): Promise<Request> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
    return new Request(`${URL_BASE}${request.url}`, { method: request.method, headers, body: Buffer.concat(chunks) });
  }

  beforeAll(async () => {
    const header = installConnectionHeader();
    server = createServer(
      withConnectionAddress(async (request, response) => {
        const fetchRequest = await toRequest(request);
        const address = clientAddress(connectionPeer(fetchRequest.headers), fetchRequest.headers, trusted);
        const answer = await handleSignIn(fetchRequest, { auth, db: database.db, limiter, address });
        response.writeHead(answer.status, { "content-type": "application/json" });
        response.end(await answer.text());
      }, header),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const attempt = (index: number, forged: Record<string, string>) =>
    fetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base, ...forged },
      body: JSON.stringify({ email: `guess${index}@example.com`, password: "a wrong password" }),
    });

  it("a new forged X-Forwarded-For (and look-alike headers) on every attempt is still limited by the connection's address", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 5; index++) {
      const forged = { "x-forwarded-for": `198.51.100.${index}`, "x-real-ip": `198.51.100.${index}`, forwarded: `for=198.51.100.${index}`, "x-dualstate-connection-guess": `203.0.113.${index}` };
      statuses.push((await attempt(index, forged)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = (await auditOf("sign_in.limited")).at(-1)!;
    expect(limited.ip).toBe("127.0.0.1");
    expect(limited.detail).toMatchObject({ reason: "3 sign-in attempts from this address" });
  });

  it("with the proxy in front trusted (DUALSTATE_TRUSTED_PROXIES), the address it reports is the key", async () => {
    trusted = new TrustedProxies([parseProxyRange("127.0.0.1/32") as ProxyRange]);
    limiter = new SignInLimiter({ failuresPerEmail: 100, attemptsPerAddress: 3, windowMs: 60_000 });
    const statuses: number[] = [];
    for (let index = 0; index < 5; index++) statuses.push((await attempt(index, { "x-forwarded-for": `6.6.6.6, 198.51.100.${index}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    for (let index = 0; index < 3; index++) await attempt(index, { "x-forwarded-for": `7.7.7.${index}, 198.51.100.200` });
    expect((await attempt(9, { "x-forwarded-for": "8.8.8.8, 198.51.100.200" })).status).toBe(429);
  });
});
