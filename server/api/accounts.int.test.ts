import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthFor, type DualstateAuth } from "@/server/auth/auth-instance";
import { resolveCredentials } from "@/server/auth/resolve-actor";
import { SignInLimiter } from "@/server/auth/sign-in-limiter";
import { handleSignIn } from "@/server/auth/sign-in-route";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { createUser } from "@/server/services/users/create-user";
import { ensureFirstAdmin } from "@/server/services/users/ensure-first-admin";
import { handleTRPCRequest } from "./http-handler";
import { createTestCaller } from "./testing/test-caller";
import type { Actor } from "./trpc";

const ADMIN_PASSWORD = "correct horse battery";
const BOB_PASSWORD = "bob's first password";
const DAY_MS = 86_400_000;

for (const provider of TEST_PROVIDERS) {
  describe(`accounts and tokens over HTTP on ${provider}`, () => {
    let database: TestDatabase;
    let auth: DualstateAuth;
    let admin: Actor;
    let server: Server;
    let base: string;

    async function toRequest(request: IncomingMessage): Promise<Request> {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
      const body = request.method === "GET" ? undefined : Buffer.concat(chunks);
      return new Request(`${base}${request.url}`, { method: request.method, headers, body });
    }

    /** The app's two doors, as `dualstate start` serves them: sign-in and the tRPC endpoint. */
    beforeAll(async () => {
      database = await createTestDatabase(provider);
      auth = await createAuthFor(database.db, { databaseUrl: database.url });
      await ensureFirstAdmin(database.db, { email: "admin@example.com", password: ADMIN_PASSWORD });
      const row = await database.db.user.findUniqueOrThrow({ where: { email: "admin@example.com" } });
      admin = { id: row.id, email: row.email, role: "admin", via: "session" };
      const limiter = new SignInLimiter();
      server = createServer((incoming, outgoing) => {
        void (async () => {
          const request = await toRequest(incoming);
          const answer = request.url.includes("/api/auth/sign-in/email")
            ? await handleSignIn(request, { auth, db: database.db, limiter, address: "127.0.0.1" })
            : await handleTRPCRequest(request, () => database.db, (req) => resolveCredentials(database.db, req.headers, async () => auth));
          const headers: Record<string, string | string[]> = { "content-type": answer.headers.get("content-type") ?? "application/json" };
          const cookies = answer.headers.getSetCookie();
          if (cookies.length > 0) headers["set-cookie"] = cookies;
          outgoing.writeHead(answer.status, headers);
          outgoing.end(await answer.text());
        })();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      await database?.dispose();
    });

    async function signIn(email: string, password: string): Promise<{ status: number; cookie: string }> {
      const response = await fetch(`${base}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify({ email, password }) });
      return { status: response.status, cookie: response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ") };
    }

    async function query(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
      const response = await fetch(`${base}/api/trpc/${path}`, { headers });
      return { status: response.status, body: await response.text() };
    }

    async function mutate(path: string, input: unknown, headers: Record<string, string>): Promise<{ status: number; body: string }> {
      const response = await fetch(`${base}/api/trpc/${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ json: input }) });
      return { status: response.status, body: await response.text() };
    }

    describe("API token expiry", () => {
      it("a token works until its expiry; after it, a 401 says it expired and when", async () => {
        const caller = createTestCaller(database.db, admin);
        const { id, token, expiresAt } = await caller.admin.createToken({ userId: admin.id, name: "nightly", expiresAt: new Date(Date.now() + 7 * DAY_MS) });
        expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
        const bearer = { authorization: `Bearer ${token}` };
        expect((await query("workflow.list", bearer)).status).toBe(200);

        const past = new Date(Date.now() - 1000);
        await database.db.apiToken.update({ where: { id }, data: { expiresAt: past } });
        const refused = await query("workflow.list", bearer);
        expect(refused.status).toBe(401);
        expect(refused.body).toContain(`This API token (${token.slice(0, 10)}…) expired on ${past.toISOString()}; ask an admin for a new one`);
        expect(refused.body).not.toContain("stack");

        const listed = (await caller.admin.tokens()).find((row) => row.id === id)!;
        expect(listed.expiresAt).toEqual(past);
      });

      it("an unknown token is simply not signed in; a revoked one says so", async () => {
        expect((await query("workflow.list", { authorization: "Bearer dst_nothing" })).body).toContain("Sign in first");
        const caller = createTestCaller(database.db, admin);
        const { id, token } = await caller.admin.createToken({ userId: admin.id, name: "old", expiresAt: new Date(Date.now() + DAY_MS) });
        await caller.admin.revokeToken({ tokenId: id });
        const refused = await query("workflow.list", { authorization: `Bearer ${token}` });
        expect(refused.status).toBe(401);
        expect(refused.body).toContain("was revoked");
      });

      it("a new token must expire, in the future and within a year", async () => {
        const caller = createTestCaller(database.db, admin);
        await expect(caller.admin.createToken({ userId: admin.id, name: "x", expiresAt: new Date(Date.now() - DAY_MS) })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "expiresAt: must be in the future" });
        await expect(caller.admin.createToken({ userId: admin.id, name: "x", expiresAt: new Date(Date.now() + 400 * DAY_MS) })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "expiresAt: must be at most 365 days from now" });
        const missing = await mutate("admin.createToken", { userId: admin.id, name: "x" }, { cookie: (await signIn("admin@example.com", ADMIN_PASSWORD)).cookie });
        expect(missing.status).toBe(400);
        expect(missing.body).toContain("expiresAt: must be a date");
      });
    });

    describe("passwords", () => {
      let bobId: string;
      beforeAll(async () => {
        bobId = (await createUser(database.db, { email: "bob@example.com", password: BOB_PASSWORD, role: "viewer" }, admin)).id;
      });

      it("a user changes their own password: the current one is required, this session stays, the others end, the old password stops working", async () => {
        const here = await signIn("bob@example.com", BOB_PASSWORD);
        const elsewhere = await signIn("bob@example.com", BOB_PASSWORD);
        expect([here.status, elsewhere.status]).toEqual([200, 200]);

        const wrong = await mutate("session.changePassword", { currentPassword: "not my password", newPassword: "bob's second password" }, { cookie: here.cookie });
        expect(wrong.status).toBe(400);
        expect(wrong.body).toContain("currentPassword: is not your current password");
        const weak = await mutate("session.changePassword", { currentPassword: BOB_PASSWORD, newPassword: "bob@example.com" }, { cookie: here.cookie });
        expect(weak.body).toContain("newPassword: must not be the email address");

        const changed = await mutate("session.changePassword", { currentPassword: BOB_PASSWORD, newPassword: "bob's second password" }, { cookie: here.cookie });
        expect(changed.status, changed.body).toBe(200);
        expect(changed.body).toContain('"sessionsEnded":1');

        expect((await query("session.me", { cookie: here.cookie })).body).toContain("bob@example.com");
        expect((await query("run.list", { cookie: elsewhere.cookie })).status).toBe(401);
        expect((await signIn("bob@example.com", BOB_PASSWORD)).status).toBe(401);
        expect((await signIn("bob@example.com", "bob's second password")).status).toBe(200);
        const audit = await database.db.auditEvent.findMany({ where: { action: "user.password_changed" } });
        expect(audit).toMatchObject([{ actorEmail: "bob@example.com", target: "user:bob@example.com", detail: { sessionsEnded: 1 } }]);
      });

      it("wrong current passwords are limited: five in fifteen minutes, then even the right one waits", async () => {
        const carol = await createUser(database.db, { email: "carol@example.com", password: "carol's password", role: "viewer" }, admin);
        const session = await signIn("carol@example.com", "carol's password");
        const attempt = (currentPassword: string) => mutate("session.changePassword", { currentPassword, newPassword: "carol's next password" }, { cookie: session.cookie });
        for (let index = 0; index < 5; index++) expect((await attempt(`guess ${index}`)).status).toBe(400);
        const limited = await attempt("carol's password");
        expect(limited.status).toBe(409);
        expect(limited.body).toContain("Too many wrong current passwords (5 in 15 minutes); try again later");
        expect(await database.db.auditEvent.count({ where: { actorId: carol.id, action: "user.password_change_failed" } })).toBe(5);
        expect((await signIn("carol@example.com", "carol's password")).status).toBe(200);
      });

      it("a token cannot change its user's password", async () => {
        const { token } = await createTestCaller(database.db, admin).admin.createToken({ userId: bobId, name: "bob's script", expiresAt: new Date(Date.now() + DAY_MS) });
        const refused = await mutate("session.changePassword", { currentPassword: "bob's second password", newPassword: "a third password!" }, { authorization: `Bearer ${token}` });
        expect(refused.status).toBe(409);
        expect(refused.body).toContain("not with an API token");
      });

      it("an admin resets a password: generated and shown once, or typed in; every session of the user ends; audited", async () => {
        const bob = await signIn("bob@example.com", "bob's second password");
        const caller = createTestCaller(database.db, admin);
        // Bob's sessions: the one kept by the change above, the sign-in with the new password, and this one.
        expect(await database.db.session.count({ where: { userId: bobId } })).toBe(3);
        const reset = await caller.admin.resetPassword({ userId: bobId });
        expect(reset).toMatchObject({ email: "bob@example.com", sessionsEnded: 3 });
        expect(await database.db.session.count({ where: { userId: bobId } })).toBe(0);
        expect(reset.generatedPassword).toMatch(/^[A-Za-z0-9_-]{18}$/);
        expect((await query("session.me", { cookie: bob.cookie })).body).not.toContain("bob@example.com");
        expect((await signIn("bob@example.com", "bob's second password")).status).toBe(401);
        expect((await signIn("bob@example.com", reset.generatedPassword!)).status).toBe(200);

        await expect(caller.admin.resetPassword({ userId: bobId, password: "aaaaaaaaaaaaaaaa" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "password: must use at least 4 different characters" });
        expect(await caller.admin.resetPassword({ userId: bobId, password: "typed by the admin" })).toEqual({ email: "bob@example.com", sessionsEnded: 1 });
        expect((await signIn("bob@example.com", "typed by the admin")).status).toBe(200);
        const audit = await database.db.auditEvent.findMany({ where: { action: "user.password_reset" }, orderBy: { at: "asc" } });
        expect(audit.map((event) => event.detail)).toEqual([{ generated: true, sessionsEnded: 3 }, { generated: false, sessionsEnded: 1 }]);
        // The generated password is in no audit event.
        expect(JSON.stringify(audit)).not.toContain(reset.generatedPassword);
      });

      it("only admins reset passwords", async () => {
        const viewer: Actor = { id: bobId, email: "bob@example.com", role: "viewer", via: "session" };
        await expect(createTestCaller(database.db, viewer).admin.resetPassword({ userId: admin.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
        await expect(createTestCaller(database.db, admin).admin.resetPassword({ userId: "nobody" })).rejects.toMatchObject({ code: "NOT_FOUND" });
      });
    });
  });
}
