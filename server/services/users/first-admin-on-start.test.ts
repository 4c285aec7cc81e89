import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAuthFor } from "@/server/auth/auth-instance";
import { SignInLimiter } from "@/server/auth/sign-in-limiter";
import { handleSignIn } from "@/server/auth/sign-in-route";
import { parseEnv } from "@/server/env";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { createUser } from "./create-user";
import { createFirstAdminOnStart } from "./first-admin-on-start";

const OLD_PASSWORD = "the old admin password";

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase("sqlite");
});
afterEach(() => database?.dispose());

/** What `dualstate start` prints about the admin, with the environment a user gives it. */
async function start(environment: Record<string, string> = {}): Promise<string> {
  const env = parseEnv(environment);
  const lines: string[] = [];
  await createFirstAdminOnStart(database.url, { email: env.DUALSTATE_ADMIN_EMAIL, password: env.DUALSTATE_ADMIN_PASSWORD }, (text) => lines.push(text));
  return lines.join("\n");
}

/** Signs in through the app's sign-in route and better-auth, as the sign-in form does. */
async function signIn(email: string, password: string) {
  const auth = await createAuthFor(database.db, { databaseUrl: database.url, secret: "a-test-secret-that-is-at-least-32-characters" });
  const request = new Request("http://localhost:3000/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost:3000" },
    body: JSON.stringify({ email, password }),
  });
  const response = await handleSignIn(request, { auth, db: database.db, limiter: new SignInLimiter(), address: "10.1.2.3" });
  return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
}

/** An admin as earlier versions created it on a first start: admin@localhost, stored without the rule. */
async function legacyAdmin(): Promise<string> {
  const id = randomUUID();
  await database.db.user.create({ data: { id, email: "admin@localhost", name: "Admin", role: "admin", emailVerified: true } });
  await database.db.account.create({ data: { id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: await hashPassword(OLD_PASSWORD) } });
  return id;
}

describe("the first start, as the README describes it (no DUALSTATE_ADMIN_* set)", () => {
  it("creates admin@dualstate.localhost, prints a generated password once, and that account signs in", async () => {
    const printed = await start();
    const match = /^Created the admin (\S+) with the generated password:\n\n {4}(\S+)\n/m.exec(printed);
    expect(match?.[1]).toBe("admin@dualstate.localhost");
    const password = match![2]!;
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect((await signIn("admin@dualstate.localhost", password)).status).toBe(200);
    // A second start creates nobody and prints nothing about the admin.
    expect(await start()).toBe("");
  });

  it("a configured admin email is normalised and signs in with the configured password", async () => {
    expect(await start({ DUALSTATE_ADMIN_EMAIL: " Ops@Example.COM ", DUALSTATE_ADMIN_PASSWORD: "twelve chars or more" })).toBe(
      "Created the admin ops@example.com with the password from DUALSTATE_ADMIN_PASSWORD.",
    );
    expect((await signIn("ops@example.com", "twelve chars or more")).status).toBe(200);
  });

  it("a configured admin email the sign-in would refuse stops the start, naming the variable and the problem", () => {
    expect(() => parseEnv({ DUALSTATE_ADMIN_EMAIL: "admin@localhost" })).toThrow(/DUALSTATE_ADMIN_EMAIL: needs a dot in its domain/);
  });
});

describe("an admin created as admin@localhost by an earlier version", () => {
  it("cannot sign in as such: the sign-in names the problem without counting it", async () => {
    await legacyAdmin();
    const refused = await signIn("admin@localhost", OLD_PASSWORD);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: "INVALID_EMAIL", message: expect.stringMatching(/^email: needs a dot in its domain/) });
  });

  it("is renamed on start to the default admin address, keeps its id and password, and the start says so", async () => {
    const id = await legacyAdmin();
    const printed = await start();
    expect(printed).toContain("Renamed the admin admin@localhost to admin@dualstate.localhost");
    expect(printed).toContain("Sign in as admin@dualstate.localhost with the same password.");
    expect(printed).not.toContain("Created the admin");
    expect(await database.db.user.findUniqueOrThrow({ where: { email: "admin@dualstate.localhost" } })).toMatchObject({ id, role: "admin" });
    expect((await signIn("admin@dualstate.localhost", OLD_PASSWORD)).status).toBe(200);
    const audit = await database.db.auditEvent.findMany({ where: { action: "user.updated" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorEmail: "dualstate", target: "user:admin@dualstate.localhost" });
    expect(audit[0]!.detail).toMatchObject({ email: { from: "admin@localhost", to: "admin@dualstate.localhost" } });
    // Once renamed, later starts leave it alone.
    expect(await start()).toBe("");
  });

  it("takes DUALSTATE_ADMIN_EMAIL when it is set", async () => {
    const id = await legacyAdmin();
    expect(await start({ DUALSTATE_ADMIN_EMAIL: "root@example.org" })).toContain("Renamed the admin admin@localhost to root@example.org");
    expect((await database.db.user.findUniqueOrThrow({ where: { email: "root@example.org" } })).id).toBe(id);
  });

  it("is not merged into another account that already has the new address; the start says what to do", async () => {
    const id = await legacyAdmin();
    await createUser(database.db, { email: "admin@dualstate.localhost", password: "someone else's password", role: "viewer" }, { id: null, email: "test" });
    const printed = await start();
    expect(printed).toContain("it was not renamed to admin@dualstate.localhost: another account has that address");
    expect((await database.db.user.findUniqueOrThrow({ where: { id } })).email).toBe("admin@localhost");
    expect((await database.db.user.findUniqueOrThrow({ where: { email: "admin@dualstate.localhost" } })).role).toBe("viewer");
  });

  it("a benign look-alike is left alone: admin@localhost.example.com is a valid address and no legacy admin", async () => {
    await createUser(database.db, { email: "admin@localhost.example.com", password: OLD_PASSWORD, role: "admin" }, { id: null, email: "test" });
    expect(await start()).toBe("");
    expect((await database.db.user.findMany()).map((user) => user.email)).toEqual(["admin@localhost.example.com"]);
  });
});

describe("Admin → Users applies the same rule (createUser)", () => {
  it.each([
    ["admin@localhost", /^email: needs a dot in its domain/],
    ["bob", /^email: must be an email address/],
    ["bob@exa mple.com", /^email: is not an address the sign-in accepts/],
    [`${"b".repeat(300)}@example.com`, /^email: must be at most 254 characters/],
  ])("refuses %s, naming the field and the problem, and creates nobody", async (email, message) => {
    await expect(createUser(database.db, { email, password: OLD_PASSWORD, role: "viewer" }, { id: null, email: "test" })).rejects.toThrow(message);
    expect(await database.db.user.count()).toBe(0);
  });

  it("creates Ada@Example.com as ada@example.com, who signs in", async () => {
    expect(await createUser(database.db, { email: " Ada@Example.com", password: OLD_PASSWORD, role: "reviewer" }, { id: null, email: "test" })).toMatchObject({ email: "ada@example.com" });
    expect((await signIn("ada@example.com", OLD_PASSWORD)).status).toBe(200);
  });
});
