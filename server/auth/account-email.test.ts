import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { accountEmailProblem, accountEmailSchema, DEFAULT_ADMIN_EMAIL, MAX_ACCOUNT_EMAIL_CHARS, normalizeAccountEmail } from "./account-email";
import { createAuthFor, type DualstateAuth } from "./auth-instance";

const ACCEPTED = [
  DEFAULT_ADMIN_EMAIL,
  "ada@example.com",
  "ada.lovelace+dualstate@mail.example.co.uk",
  "o'brien@example.org",
  "first_last-1@sub-domain.example.io",
  "ops@intranet.localhost",
  "ADMIN@EXAMPLE.COM",
];

const REFUSED: ReadonlyArray<readonly [string, RegExp]> = [
  ["admin@localhost", /needs a dot in its domain/],
  ["ops@intranet", /needs a dot in its domain/],
  ["admin", /must be an email address/],
  ["@example.com", /must be an email address/],
  ["admin@", /must be an email address/],
  ["a..b@example.com", /is not an address the sign-in accepts/],
  ["a@example.c", /is not an address the sign-in accepts/],
  ["a@localhost.", /is not an address the sign-in accepts/],
  ["ü@example.com", /is not an address the sign-in accepts/],
  ["a@[127.0.0.1]", /is not an address the sign-in accepts/],
  ["a b@example.com", /is not an address the sign-in accepts/],
  ['"a"@example.com', /is not an address the sign-in accepts/],
];

describe("the account email rule (server/auth/account-email.ts)", () => {
  it.each(ACCEPTED)("accepts %s", (email) => {
    expect(accountEmailProblem(email)).toBeNull();
  });

  it.each(REFUSED)("refuses %s and names why", (email, why) => {
    expect(accountEmailProblem(email)).toMatch(why);
  });

  it("never quotes the address it refuses", () => {
    const hostile = "\u001b[31mevil\u0007@nodot";
    const problem = accountEmailProblem(hostile)!;
    expect(problem).not.toContain("evil");
    expect(problem).not.toContain("\u001b");
  });

  it("bounds the length before the regular expression runs, and answers a pathological address quickly", () => {
    const long = `${"a".repeat(MAX_ACCOUNT_EMAIL_CHARS)}@example.com`;
    expect(accountEmailProblem(long)).toBe(`must be at most ${MAX_ACCOUNT_EMAIL_CHARS} characters`);
    expect(accountEmailProblem(`${"a".repeat(MAX_ACCOUNT_EMAIL_CHARS - 12)}@example.com`)).toBeNull();
    const started = performance.now();
    for (let i = 0; i < 100; i++) accountEmailProblem(`${"a.".repeat(120)}!@${"b-".repeat(5)}`);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("the schema trims and lower-cases, the way the sign-in looks accounts up", () => {
    expect(accountEmailSchema.parse("  Ada@Example.COM ")).toBe("ada@example.com");
    expect(normalizeAccountEmail(" X@Y.Z ")).toBe("x@y.z");
    const refused = accountEmailSchema.safeParse("admin@localhost");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/needs a dot in its domain/);
  });
});

// The rule is only right if better-auth's own sign-in agrees with it: an address the rule accepts
// reaches the password check (401 for an unknown account), one it refuses is a 400 INVALID_EMAIL.
describe("the rule agrees with better-auth's sign-in, asked directly", () => {
  let database: TestDatabase;
  let auth: DualstateAuth;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    auth = await createAuthFor(database.db, { databaseUrl: database.url, secret: "a-test-secret-that-is-at-least-32-characters" });
  });
  afterAll(() => database?.dispose());

  async function betterAuthAnswer(email: string): Promise<{ status: number; code?: string }> {
    const response = await auth.handler(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({ email, password: "a password that matches nobody" }),
      }),
    );
    const body = (await response.json().catch(() => ({}))) as { code?: string };
    return { status: response.status, code: body.code };
  }

  it.each(ACCEPTED.map((email) => email.toLowerCase()))("%s reaches the password check", async (email) => {
    expect(await betterAuthAnswer(email)).toEqual({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });
  });

  it.each(REFUSED.map(([email]) => email))("%s is refused as an invalid email", async (email) => {
    expect(await betterAuthAnswer(email)).toEqual({ status: 400, code: "INVALID_EMAIL" });
  });
});
