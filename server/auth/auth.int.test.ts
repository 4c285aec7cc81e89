import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { createApiToken, revokeApiToken } from "@/server/services/api-tokens/api-tokens";
import { createUser } from "@/server/services/users/create-user";
import { ensureFirstAdmin } from "@/server/services/users/ensure-first-admin";
import { updateUser } from "@/server/services/users/manage-users";
import type { Actor } from "@/server/api/trpc";
import { createAuthFor, type DualstateAuth } from "./auth-instance";
import { resolveActor } from "./resolve-actor";
import { SignInLimiter } from "./sign-in-limiter";
import { handleSignIn } from "./sign-in-route";

const providers = TEST_PROVIDERS;
const PASSWORD = "correct horse battery";

function signInRequest(email: string, password: string, ip = "10.0.0.1"): Request {
  return new Request("http://localhost:3000/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-forwarded-for": ip },
    body: JSON.stringify({ email, password }),
  });
}

/** The session cookie a successful sign-in sets, as a Cookie request header. */
function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

describe.each(providers)("sign-in, sessions and tokens on %s", (provider) => {
  let database: TestDatabase;
  let auth: DualstateAuth;
  let admin: Actor;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    auth = await createAuthFor(database.db, { databaseUrl: database.url });
    const first = await ensureFirstAdmin(database.db, { email: "Admin@Example.com", password: PASSWORD });
    expect(first).toEqual({ created: true, email: "admin@example.com", generatedPassword: undefined });
    const row = await database.db.user.findUniqueOrThrow({ where: { email: "admin@example.com" } });
    admin = { id: row.id, email: row.email, role: "admin", via: "session" };
  });
  afterAll(() => database?.dispose());

  const actorOf = (headers: HeadersInit) => resolveActor(database.db, new Headers(headers), async () => auth);

  it("creates the first admin once; a second start leaves the users alone", async () => {
    expect(await ensureFirstAdmin(database.db, { email: "other@example.com" })).toEqual({ created: false });
    expect(await database.db.user.count()).toBe(1);
  });

  it("a signed-in person's session cookie resolves to their actor with their role; no cookie is nobody", async () => {
    const response = await handleSignIn(signInRequest("admin@example.com", PASSWORD), { auth, db: database.db, limiter: new SignInLimiter(), address: "10.0.0.1" });
    expect(response.status).toBe(200);
    const setCookie = response.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(await actorOf({ cookie: cookieOf(response) })).toEqual({ id: admin.id, email: "admin@example.com", role: "admin", via: "session" });
    expect(await actorOf({})).toBeNull();
    expect(await actorOf({ cookie: "better-auth.session_token=forged.value" })).toBeNull();
  });

  it("refuses a sign-in posted from another site's page", async () => {
    const request = signInRequest("admin@example.com", PASSWORD);
    const forged = new Request(request.url, { method: "POST", headers: { "content-type": "application/json", origin: "https://evil.example", host: "localhost:3000" }, body: await request.text() });
    const response = await handleSignIn(forged, { auth, db: database.db, limiter: new SignInLimiter(), address: "10.0.0.1" });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("a wrong password is refused and audited; after five failures the email is limited with a clear message", async () => {
    const limiter = new SignInLimiter();
    const deps = { auth, db: database.db, limiter, address: "10.0.0.1" };
    const wrong = await handleSignIn(signInRequest("admin@example.com", "not the password"), deps);
    expect(wrong.status).toBe(401);
    for (let i = 0; i < 4; i++) await handleSignIn(signInRequest("admin@example.com", "not the password"), deps);
    const limited = await handleSignIn(signInRequest("admin@example.com", PASSWORD), deps);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await limited.json()) as { message: string }).message).toMatch(/^Too many sign-in attempts \(5 failed sign-ins for this email\); try again in \d+ seconds$/);
    const actions = (await database.db.auditEvent.findMany({ where: { actorEmail: "admin@example.com" } })).map((event) => event.action);
    expect(actions.filter((action) => action === "sign_in.failed")).toHaveLength(5);
    expect(actions).toContain("sign_in.limited");
    expect(actions).toContain("sign_in.succeeded");
  });

  it("a disabled user cannot sign in, and their existing session stops working", async () => {
    const created = await createUser(database.db, { email: "rev@example.com", password: PASSWORD, role: "reviewer" }, admin);
    const signedIn = await handleSignIn(signInRequest("rev@example.com", PASSWORD), { auth, db: database.db, limiter: new SignInLimiter(), address: "10.0.0.1" });
    const cookie = cookieOf(signedIn);
    expect((await actorOf({ cookie }))?.role).toBe("reviewer");
    await updateUser(database.db, { userId: created.id, disabled: true }, admin);
    expect(await actorOf({ cookie })).toBeNull();
    const again = await handleSignIn(signInRequest("rev@example.com", PASSWORD), { auth, db: database.db, limiter: new SignInLimiter(), address: "10.0.0.1" });
    expect(again.ok).toBe(false);
    await updateUser(database.db, { userId: created.id, disabled: false }, admin);
  });

  it("the last admin cannot be demoted or disabled", async () => {
    await expect(updateUser(database.db, { userId: admin.id, role: "viewer" }, admin)).rejects.toMatchObject({ code: "CONFLICT", message: "admin@example.com is the last admin; make someone else an admin first" });
    await expect(updateUser(database.db, { userId: admin.id, disabled: true }, admin)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("personal API tokens: shown once, stored hashed, resolve to their user, record their last use, stop when revoked", async () => {
    const viewer = await createUser(database.db, { email: "view@example.com", password: PASSWORD, role: "viewer" }, admin);
    const { id, token } = await createApiToken(database.db, { userId: viewer.id, name: "ci", expiresAt: new Date(Date.now() + 86_400_000) }, admin);
    expect(token).toMatch(/^dst_[A-Za-z0-9_-]{43}$/);
    const stored = await database.db.apiToken.findUniqueOrThrow({ where: { id } });
    expect(stored.tokenHash).not.toContain(token.slice(4));
    expect(stored.lastUsedAt).toBeNull();
    expect(await actorOf({ authorization: `Bearer ${token}` })).toEqual({ id: viewer.id, email: "view@example.com", role: "viewer", via: "token" });
    expect((await database.db.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).not.toBeNull();
    expect(await actorOf({ authorization: "Bearer dst_unknown" })).toBeNull();
    expect(await actorOf({ authorization: "Basic abc" })).toBeNull();
    await revokeApiToken(database.db, id, admin);
    expect(await actorOf({ authorization: `Bearer ${token}` })).toBeNull();
    const actions = (await database.db.auditEvent.findMany({ where: { target: `token:${id}` } })).map((event) => event.action);
    expect(actions.sort()).toEqual(["token.created", "token.revoked"]);
  });

  it("the audit log refuses updates and deletes", async () => {
    const event = await database.db.auditEvent.findFirstOrThrow();
    // The trigger's message reaches PostgreSQL clients; Prisma's SQLite adapter reports a constraint violation.
    await expect(database.db.auditEvent.updateMany({ where: { id: event.id }, data: { action: "tampered" } })).rejects.toThrow(/append-only|constraint/);
    await expect(database.db.auditEvent.deleteMany({ where: { id: event.id } })).rejects.toThrow(/append-only|constraint/);
    expect(await database.db.auditEvent.findUniqueOrThrow({ where: { id: event.id } })).toEqual(event);
  });
});
